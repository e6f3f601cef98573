"""The stored game is the truth (issue 24): undo, the public log and "since your last move" read the records
stored with each move, never a replay from the seed; storage faults are told apart from damage."""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.digest import digest
from bot.models import NoticeKind
from bot.service import GameService, ServiceError
from bot.storage import GameStore, open_store
from bot.store import Store
from engine.core import Game
from engine.registry import get_game, make_policy, spec


def get_game_spec_version() -> str:
    return spec(GAME).rules_version()

pytestmark = pytest.mark.asyncio
GAME = "history-classic"
USERS = (1, 2, 3)


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


def service(store: GameStore, clock: FakeClock | None = None) -> GameService:
    return GameService(store, clock or FakeClock(), seed_factory=lambda: 7, id_factory=ids(),
                       checkpoint_every=20)


async def started(svc: GameService) -> str:
    out = await svc.create_lobby(USERS[0], "ann", GAME)
    for user in USERS[1:]:
        await svc.join(out.game_id, user, f"p{user}")
    await svc.start(out.game_id, USERS[0])
    return out.game_id


async def play_one(svc: GameService, gid: str, seed: int) -> int:
    """The waiting person plays a random legal move; returns who."""
    status = await svc.status(gid)
    user = status.waiting_for[0]
    seq, state = await svc.engine_state(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seed).choose(state, seat)
    await svc.submit(gid, user, action.to_json(), seq)
    return user


async def until_undoable(svc: GameService, gid: str) -> int:
    """Play random moves until the person who moved last may take their move back; returns them."""
    for seed in range(400):
        user = await play_one(svc, gid, seed)
        if await svc.can_undo(gid, user):
            return user
    raise AssertionError("no undoable move in 400 moves")


def without_setup(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on, any replay from the seed fails loudly (it starts with the game's set-up)."""
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a replay from the seed on a path a player waits on")
    monkeypatch.setattr(game, "setup", refuse)


async def test_undo_log_and_news_never_replay_from_the_seed(store: Store,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, "Per-move records written at commit": the log, the news and undo read the records;
    replay from the seed stays a check. With the game's set-up made to fail, every one still works."""
    svc = service(store)
    gid = await started(svc)
    for seed in range(30):
        await play_one(svc, gid, 1000 + seed)
    user = await until_undoable(svc, gid)
    seq_before_undo = (await svc.status(gid)).seq
    _, log_before = await svc.public_log(gid)
    without_setup(get_game(GAME), monkeypatch)
    svc.forget()  # and nothing cached: everything comes from the database
    assert await svc.can_undo(gid, user)
    status = await svc.status(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    last, news = await svc.since_last_move(gid, seat)
    assert last == seq_before_undo and news and news[0]["seq"] == last
    await svc.undo(gid, user, seq_before_undo)
    seq, entries = await svc.public_log(gid)
    assert seq == seq_before_undo + 1
    # the move taken back is gone from the log, as the table sees it; everything before stays
    assert [e for e in entries] == [e for e in log_before if e.seq != seq_before_undo]


async def test_the_state_after_an_undo_equals_the_state_before_the_move(store: Store) -> None:
    svc = service(store)
    gid = await started(svc)
    game = get_game(GAME)
    for seed in range(400):
        seq, before = await svc.engine_state(gid)
        user = await play_one(svc, gid, 2000 + seed)
        if await svc.can_undo(gid, user):  # nobody moved after them, or the chain would be closed
            break
    else:
        raise AssertionError("no undoable move in 400 moves")
    svc.forget()
    await svc.undo(gid, user, seq + 1)
    _, after = await svc.engine_state(gid)
    assert json.loads(game.dumps(after)) == json.loads(game.dumps(before))
    assert await svc.verify_game(gid) == []  # and the log, undo entry and all, still replays to it


async def test_records_and_undo_survive_a_restart(store: Store) -> None:
    svc = service(store)
    gid = await started(svc)
    user = await until_undoable(svc, gid)
    seq = (await svc.status(gid)).seq
    again = service(store)  # a new process: nothing in memory
    assert await again.can_undo(gid, user)
    await again.undo(gid, user, seq)
    assert not any(e.seq == seq for e in (await again.public_log(gid))[1])


async def test_a_transient_read_error_is_busy_and_sets_nothing_aside(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, point 6: one transient read error used to set a healthy game aside and delete its
    deadlines. Now it is "busy, try again"; the game and its clocks stay."""
    svc = service(store)
    gid = await started(svc)
    deadlines = await store.game_deadlines(gid)
    assert deadlines
    svc.forget()
    real = store.load_bundle
    calls = itertools.count()

    failing = 1

    async def flaky(game_id: str) -> Any:
        if next(calls) < failing:
            raise sqlite3.OperationalError("disk I/O error")
        return await real(game_id)

    monkeypatch.setattr(store, "load_bundle", flaky)
    assert (await svc.status(gid)).status == "active"  # tried again after a short pause
    svc.forget()
    calls, failing = itertools.count(), 10  # a fault that lasts: "busy, try again", and nothing set aside
    with pytest.raises(ServiceError) as info:
        await svc.status(gid)
    assert info.value.code == "busy" and "try again" in info.value.message
    assert await store.damaged_games() == {}
    assert await store.game_deadlines(gid) == deadlines
    calls, failing = itertools.count(), 0
    assert (await svc.status(gid)).status == "active"  # the next call reads it


async def test_a_damaged_game_keeps_its_clocks_paused_and_they_run_on_once_it_loads(store: Store) -> None:
    """Issue 24, point 6: a game set aside keeps its deadlines (paused, not deleted); when it loads
    again, its clocks run on, moved later by the time it spent set aside."""
    clock = FakeClock()
    svc = service(store, clock)
    gid = await started(svc)
    before = {d.deadline_id: d.due_at for d in await store.game_deadlines(gid)}
    clock.advance(1000)  # the clock ran 1000 s before the game was set aside
    await store.mark_damaged(gid, "a test", int(clock.now()))
    assert {d.deadline_id for d in await store.game_deadlines(gid)} == set(before)  # kept, not deleted
    assert all(d.game_id != gid for d in await store.pending_deadlines())  # but paused
    clock.advance(3600)
    restarted = service(store, clock)
    await restarted.startup()  # it loads again: back in play
    assert await store.damaged_games() == {}
    after = {d.deadline_id: d.due_at for d in await store.game_deadlines(gid)}
    assert after == {k: v + 3600 for k, v in before.items()}


async def test_damage_in_the_log_alone_leaves_undo_log_and_news_working_and_check_names_it(
        tmp_path: Any) -> None:
    """Issue 24, point 7: a log row that is not JSON, or not a move, used to leave status and moves
    working while undo, log and news raised raw errors. They read the records now; check names the row."""
    db = str(tmp_path / "annals.sqlite3")
    store = await Store.open(db)
    try:
        svc = service(store)
        gid = await started(svc)
        for seed in range(12):
            await play_one(svc, gid, 3000 + seed)
    finally:
        await store.close()
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE actions SET action_json = 'not json' WHERE game_id = ? AND seq = 3", (gid,))
        conn.execute("""UPDATE actions SET action_json = '{"kind": "teleport", "player": 0}'
                        WHERE game_id = ? AND seq = 5""", (gid,))
    store = await Store.open(db)
    try:
        svc = service(store)
        user = await until_undoable(svc, gid)
        status = await svc.status(gid)
        assert await svc.can_undo(gid, user)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        await svc.since_last_move(gid, seat)
        _, entries = await svc.public_log(gid)
        assert any(e.seq == 3 for e in entries) and any(e.seq == 5 for e in entries)
        await svc.undo(gid, user, status.seq)
        problems = await svc.verify_game(gid)
        assert "log entry 3 cannot be read (not a JSON object)" in problems
        assert any(p.startswith("log entry 5 is not a move of this game") for p in problems)
        assert await store.damaged_games() == {}  # the game itself plays on
    finally:
        await store.close()


async def test_a_game_of_older_rules_is_no_damage_and_plays_on(tmp_path: Any) -> None:
    """Issue 24, "Games outlive the code that started them": a game whose log replays differently under
    today's rules is listed as started under older rules when its recorded version is not today's (or
    was never recorded), and as damage when it is today's."""
    db = str(tmp_path / "annals.sqlite3")
    store = await Store.open(db)
    try:
        svc = service(store)
        gid = await started(svc)
        for seed in range(25):
            await play_one(svc, gid, 4000 + seed)
        bundle = await store.load_bundle(gid)
        assert bundle is not None and bundle.rules_version == get_game_spec_version()
    finally:
        await store.close()
    with sqlite3.connect(db) as conn:  # an older rule: the stored states are not what today's rules reach
        state = json.loads(conn.execute("SELECT state_json FROM checkpoints WHERE game_id = ? AND seq = 20",
                                        (gid,)).fetchone()[0])
        state["rng_counter"] += 1  # as if an older rule had rolled one die more
        conn.execute("UPDATE checkpoints SET state_json = ? WHERE game_id = ? AND seq = 20",
                     (json.dumps(state), gid))
    store = await Store.open(db)
    try:
        svc = service(store)
        assert any("differs" in p for p in await svc.verify_game(gid))  # today's rules: that is damage
        for older in ("0+before", None):
            async with store.transaction() as conn:
                await conn.execute("UPDATE games SET rules_version = ? WHERE game_id = ?", (older, gid))
            audit = await svc.audit()
            shown = older or "unknown"
            assert audit.problems == []
            assert audit.notes == [f"game {gid}: started under older rules (version {shown}), plays on from "
                                   "its snapshot"]
        user = await until_undoable(svc, gid)  # and it plays on: moves, undo, log, news
        seq = (await svc.status(gid)).seq
        await svc.undo(gid, user, seq)
        await svc.public_log(gid)
    finally:
        await store.close()


async def test_a_stale_copy_in_another_process_is_reloaded_not_called_corrupt(db_target: str) -> None:
    """Issue 24, point 5: with two processes on one database, undo in the one whose copy is older
    called a healthy game corrupt. Now an old click is refused as stale (or as changed meanwhile), and a
    click made after the other process's move reloads the game and takes the move back."""
    first_store = await open_store(db_target)
    second_store = await open_store(db_target)
    try:
        first, second = service(first_store), GameService(second_store, FakeClock())
        gid = await started(first)
        await until_undoable(first, gid)
        seen = (await first.status(gid)).seq  # the person's panel, and the first process's copy
        user = await until_undoable(second, gid)  # the other process moves the game on
        fresh = (await second.status(gid)).seq
        with pytest.raises(ServiceError) as info:
            await first.undo(gid, user, seen)
        assert info.value.code in ("stale", "conflict", "nothing_to_undo"), info.value.message
        await first.undo(gid, user, fresh)
        game = await first_store.get_game(gid)
        assert game is not None and game.seq == fresh + 1
        assert await first.verify_game(gid) == []
    finally:
        await first_store.close()
        await second_store.close()


async def test_news_of_moves_made_before_records_were_kept_names_the_mover(store: Store) -> None:
    """A move made before records were kept reads as one line naming the mover, in the news and the log."""
    svc = service(store)
    gid = await started(svc)
    movers: set[int] = set()
    for seed in itertools.count(5000):  # until the one to move now is not the only one who moved
        movers.add(await play_one(svc, gid, seed))
        if movers - set((await svc.status(gid)).waiting_for):
            break
    async with store.transaction() as conn:
        await conn.execute("UPDATE actions SET events_json = 'null' WHERE game_id = ?", (gid,))
    status = await svc.status(gid)
    _, entries = await svc.public_log(gid)
    assert entries and all(e.notice is NoticeKind.unrecorded for e in entries)
    reader = next(s.seat for s in status.seats if s.user_id in status.waiting_for)
    assert reader is not None
    _, news = await svc.since_last_move(gid, reader)
    text = digest(news, reader, status.seat_names, get_game(GAME))
    assert "before the bot was upgraded" in text
    assert any(name in text for i, name in enumerate(status.seat_names) if i != reader)


async def test_records_recovered_after_an_upgrade_match_what_was_played(store: Store) -> None:
    """After an upgrade the entries written before records were kept get theirs by a replay that is
    trusted only up to the newest stored state it still reaches: here all of it."""
    svc = service(store)
    gid = await started(svc)
    for seed in range(30):
        await play_one(svc, gid, 6000 + seed)
    _, recorded = await svc.public_log(gid)
    async with store.transaction() as conn:
        await conn.execute("UPDATE actions SET events_json = NULL WHERE game_id = ?", (gid,))
    assert await store.unrecorded_games() == [gid]
    assert await svc.recover_records() == 1
    assert await store.unrecorded_games() == []
    assert (await svc.public_log(gid))[1] == recorded


async def test_the_public_log_read_page_by_page_is_the_whole_log_cut_in_pages(store: Store) -> None:
    """Issue 25: the log is read page by page from the index of the moves (their public events
    counted), each page reading and wording its own events only; the pages put together are the whole
    log, moves taken back and runs of unrecorded moves included."""
    svc = service(store)
    gid = await started(svc)
    for seed in range(25):
        await play_one(svc, gid, 7000 + seed)
    user = await until_undoable(svc, gid)
    await svc.undo(gid, user, (await svc.status(gid)).seq)
    for seed in range(10):
        await play_one(svc, gid, 7100 + seed)
    async with store.transaction() as conn:  # moves made before records were kept, in the middle
        await conn.execute("UPDATE actions SET events_json = NULL, public_events = NULL "
                           "WHERE game_id = ? AND seq BETWEEN 5 AND 12", (gid,))
    _, whole = await svc.public_log(gid)
    assert any(e.notice is NoticeKind.unrecorded for e in whole)
    _, total, nothing = await svc.public_log_slice(gid, 0, 0)
    assert total == len(whole) and nothing == []
    for size in (1, 5, 12):
        pages = [(await svc.public_log_slice(gid, first, size))[2] for first in range(0, total, size)]
        assert [e for page in pages for e in page] == whole
        assert (await svc.public_log_slice(gid, None, size))[2] == whole[-size:]
    assert (await svc.public_log_slice(gid, total + 5, 12))[2] == []
