"""The game service: lobbies, moves, authorization, concurrency, deadlines, AI seats, recovery."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.models import ActionRow, GameChange, Outcome, TimerSettings, UserSettings
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.core import replay
from engine.registry import get_game, make_policy

pytestmark = pytest.mark.asyncio
GAME = "history-classic"
CREATOR, ADMIN, OUTSIDER = 1, 99, 50


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


@pytest.fixture
def svc(store: Store, clock: FakeClock) -> GameService:
    return GameService(store, clock, seed_factory=lambda: 42, id_factory=ids(), checkpoint_every=20)


async def started(svc: GameService, humans: tuple[int, ...] = (1, 2, 3), ais: int = 0, *,
                  creator_joins: bool = True, timers: TimerSettings | None = None, seed: int = 42) -> str:
    """A started game; ``humans[0]`` creates it (seated unless ``creator_joins`` is False)."""
    first = humans[0] if creator_joins else CREATOR
    out = await svc.create_lobby(first, f"P{first}", GAME, timers=timers, seed=seed,
                                 creator_joins=creator_joins)
    gid = out.game_id
    for user in humans[1:] if creator_joins else humans:
        await svc.join(gid, user, f"P{user}")
    for _ in range(ais):
        await svc.add_ai(gid, first)
    await svc.start(gid, first)
    return gid


async def move(svc: GameService, gid: str, user: int | None = None) -> Outcome:
    """The waiting player (or ``user``) plays a random legal move."""
    status = await svc.status(gid)
    user = status.waiting_for[0] if user is None else user
    seq, state = await svc.engine_state(gid)
    seat = next(s.seat for s in status.seats if s.user_id == user)
    assert seat is not None
    action = make_policy(GAME, "random", seq).choose(state, seat)
    return await svc.submit(gid, user, action.to_json(), seq)


async def codes(coro: Any) -> str:
    with pytest.raises(ServiceError) as info:
        await coro
    return info.value.code


# -- lobby -------------------------------------------------------------------------------


async def test_lobby_rules(svc: GameService) -> None:
    assert await codes(svc.create_lobby(1, "Ann", "chess")) == "unknown_game"
    assert await codes(svc.create_lobby(1, "Ann", GAME, max_seats=2)) == "bad_seats"
    assert await codes(svc.create_lobby(1, "Ann", GAME, max_seats=7)) == "bad_seats"
    assert await codes(svc.create_lobby(1, "Ann", GAME, options={"fog": True})) == "bad_options"
    too_short = TimerSettings(move_seconds=30)
    assert await codes(svc.create_lobby(1, "Ann", GAME, timers=too_short)) == "bad_timers"
    too_long = TimerSettings(move_seconds=15 * 86400)
    assert await codes(svc.create_lobby(1, "Ann", GAME, timers=too_long)) == "bad_timers"
    assert await codes(svc.create_lobby(1, "  ", GAME)) == "bad_name"
    gid = (await svc.create_lobby(1, "Ann", GAME, max_seats=3)).game_id
    await svc.join(gid, 2, "Bob")
    assert await codes(svc.join(gid, 2, "Bob")) == "already_seated"
    assert await codes(svc.start(gid, 1)) == "not_enough_players"
    assert await codes(svc.add_ai(gid, 2)) == "not_allowed"
    assert await codes(svc.add_ai(gid, 1, policy="psychic")) == "bad_policy"
    await svc.join(gid, 3, "Cy")
    assert await codes(svc.join(gid, 4, "Di")) == "lobby_full"
    await svc.leave(gid, 3)
    await svc.add_ai(gid, 1)
    assert await codes(svc.start(gid, 2)) == "not_allowed"
    assert await codes(svc.submit(gid, 1, {"kind": "keep"}, 0)) == "not_started"
    out = await svc.start(gid, 1)
    assert out.status.status == "active"
    assert await codes(svc.join(gid, 5, "Ed")) == "not_in_lobby"
    assert await codes(svc.leave(gid, 2)) == "not_in_lobby"
    assert await codes(svc.status("nope")) == "no_such_game"


async def test_start_draws_the_seat_order_from_the_seed(store: Store, clock: FakeClock) -> None:
    orders = []
    for _ in range(2):
        svc = GameService(store, clock)
        gid = await started(svc, (1, 2, 3, 4), seed=1234)
        status = await svc.status(gid)
        orders.append([(s.user_id, s.seat, s.colour) for s in status.seats])
        snapshot = await store.snapshot(gid)
        assert snapshot is not None and snapshot.seq == 0
    assert orders[0] == orders[1]
    # four players, four seats: a None (no seat dealt) would leave three
    assert sorted(seat for _, seat, _ in orders[0] if seat is not None) == [0, 1, 2, 3]
    assert orders[0][0][2] == "Red"


async def test_start_notifies_the_first_player_privately(svc: GameService) -> None:
    gid = (await svc.create_lobby(1, "Ann", GAME)).game_id
    await svc.join(gid, 2, "Bob")
    await svc.join(gid, 3, "Cy")
    out = await svc.start(gid, 1)
    turn = [n for n in out.notices if n.kind == "your_turn"]
    assert [n.audience for n in turn] == [out.status.waiting_for]
    assert out.notices[0].kind == "game_started" and out.notices[0].is_public


# -- submit ------------------------------------------------------------------------------


async def test_bad_input_gets_a_clear_message_and_changes_nothing(svc: GameService, store: Store) -> None:
    gid = await started(svc)
    status = await svc.status(gid)
    user = status.waiting_for[0]
    seat = next(s.seat for s in status.seats if s.user_id == user)
    other = next(s.user_id for s in status.seats if s.user_id != user)
    assert other is not None
    cases: list[tuple[Any, int, int, str]] = [
        ({"kind": "keep"}, 5, user, "stale"),
        ("{not json", 0, user, "bad_action"),
        ("[1, 2]", 0, user, "bad_action"),
        ({"kind": "fly"}, 0, user, "unknown_action"),
        ({"kind": "keep", "wings": 2}, 0, user, "bad_action"),
        ({"kind": "give"}, 0, user, "bad_action"),
        ({"kind": "keep", "player": (seat or 0) + 1}, 0, user, "not_your_seat"),
        ({"kind": "expand", "land": "Levant"}, 0, user, "wrong_step"),
        ({"kind": "keep"}, 0, other, "not_your_turn"),
        ({"kind": "keep"}, 0, OUTSIDER, "not_seated"),
    ]
    for action, seq, who, code in cases:
        with pytest.raises(ServiceError) as info:
            await svc.submit(gid, who, action, seq)
        assert info.value.code == code, (action, info.value.message)
        assert info.value.message
    assert (await svc.status(gid)).seq == 0
    assert await store.log_bounds(gid) == (0, 0, 0)


async def test_a_double_click_applies_once(svc: GameService, store: Store) -> None:
    gid = await started(svc)
    status = await svc.status(gid)
    user = status.waiting_for[0]
    await svc.submit(gid, user, {"kind": "keep"}, 0)
    assert await codes(svc.submit(gid, user, {"kind": "keep"}, 0)) == "stale"
    assert (await store.log_bounds(gid))[0] == 1


async def test_concurrent_submits_with_the_same_seq_apply_exactly_one(svc: GameService, store: Store) -> None:
    gid = await started(svc)
    user = (await svc.status(gid)).waiting_for[0]
    results = await asyncio.gather(*(svc.submit(gid, user, {"kind": "keep"}, 0) for _ in range(25)),
                                   return_exceptions=True)
    applied = [r for r in results if isinstance(r, Outcome)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(applied) == 1 and len(refused) == 24
    assert {e.code for e in refused} == {"stale"}
    assert await store.log_bounds(gid) == (1, 1, 1)
    assert await svc.verify_game(gid) == []


async def test_submits_to_different_games_all_apply(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, clock, id_factory=ids())
    games = [await started(svc, (10 * i + 1, 10 * i + 2, 10 * i + 3), seed=i) for i in range(1, 13)]
    for _ in range(3):
        waves = []
        for gid in games:
            status = await svc.status(gid)
            seq, state = await svc.engine_state(gid)
            user = status.waiting_for[0]
            seat = next(s.seat for s in status.seats if s.user_id == user)
            assert seat is not None
            action = make_policy(GAME, "random", seq).choose(state, seat)
            waves.append(svc.submit(gid, user, action.to_json(), seq))
        results = await asyncio.gather(*waves, return_exceptions=True)
        assert not [r for r in results if isinstance(r, BaseException)], results
    for gid in games:
        assert (await store.log_bounds(gid))[0] >= 3
        assert await svc.verify_game(gid) == []


async def test_mixed_concurrent_load_never_reports_a_locked_database(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, clock, id_factory=ids())
    games = [await started(svc, (10 * i + 1, 10 * i + 2, 10 * i + 3), seed=i) for i in range(1, 6)]

    async def player(gid: str) -> int:
        done = 0
        for _ in range(15):
            try:
                await move(svc, gid)
                done += 1
            except ServiceError as exc:
                assert exc.code == "stale"
        return done

    # three racing clients per game, all games at once
    counts = await asyncio.gather(*(player(g) for g in games for _ in range(3)), return_exceptions=True)
    errors = [c for c in counts if isinstance(c, BaseException)]
    assert not errors, errors
    for gid in games:
        assert await svc.verify_game(gid) == []


async def test_private_events_go_to_the_right_people(svc: GameService) -> None:
    gid = await started(svc, (1, 2, 3))
    status = await svc.status(gid)
    user_of = {s.seat: s.user_id for s in status.seats if s.user_id is not None}  # all three are people
    private = 0
    for _ in range(30):
        out = await move(svc, gid)
        for notice in out.notices:
            if notice.seats is not None:
                private += 1
                assert notice.audience == tuple(sorted({user_of[p] for p in notice.seats}))
            else:
                assert notice.is_public or notice.kind in ("your_turn", "reminder")
    assert private > 0


# -- authorization -----------------------------------------------------------------------

ROLES = ("outsider", "player_out_of_turn", "player_in_turn", "creator", "admin")
EXPECTED = {
    "submit": {"outsider": "not_seated", "player_out_of_turn": "not_your_turn", "player_in_turn": None,
               "creator": "not_seated", "admin": "not_seated"},
    "kick": {"outsider": "not_allowed", "player_out_of_turn": "not_allowed", "player_in_turn": "not_allowed",
             "creator": None, "admin": None},
    "pause": {"outsider": "not_allowed", "player_out_of_turn": "not_allowed",
              "player_in_turn": "not_allowed", "creator": None, "admin": None},
    "abandon": {"outsider": "not_allowed", "player_out_of_turn": "not_allowed",
                "player_in_turn": "not_allowed", "creator": None, "admin": None},
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("what", sorted(EXPECTED))
async def test_who_may_do_what(svc: GameService, store: Store, what: str, role: str) -> None:
    gid = await started(svc, (2, 3, 4), creator_joins=False)  # creator 1 does not play
    status = await svc.status(gid)
    actor = status.waiting_for[0]
    bystanders = [s.user_id for s in status.seats if s.user_id != actor]
    out_of_turn, victim = bystanders[0], bystanders[1]
    assert out_of_turn is not None and victim is not None
    user = {"outsider": OUTSIDER, "player_out_of_turn": out_of_turn, "player_in_turn": actor,
            "creator": CREATOR, "admin": ADMIN}[role]
    admin = role == "admin"
    seq, _ = await svc.engine_state(gid)
    calls = {
        "submit": lambda: svc.submit(gid, user, {"kind": "keep"}, seq),
        "kick": lambda: svc.kick(gid, user, victim, is_admin=admin),
        "pause": lambda: svc.pause(gid, user, is_admin=admin),
        "abandon": lambda: svc.abandon(gid, user, is_admin=admin),
    }
    expected = EXPECTED[what][role]
    if expected is None:
        out = await calls[what]()
        assert out.game_id == gid
    else:
        assert await codes(calls[what]()) == expected
        after = await svc.status(gid)
        assert (after.seq, after.status, after.seats) == (status.seq, status.status, status.seats)
        assert await store.log_bounds(gid) == (0, 0, 0)


# -- deadlines ---------------------------------------------------------------------------


async def test_deadlines_follow_the_players_who_must_act(
    svc: GameService, store: Store, clock: FakeClock
) -> None:
    timers = TimerSettings(move_seconds=3600, reminder_offsets=(600, 1800))
    gid = await started(svc, timers=timers)
    for _ in range(25):
        status = await svc.status(gid)
        rows = await store.game_deadlines(gid)
        assert rows == list(status.deadlines)
        seats = {s.seat: s for s in status.seats}
        assert {d.player for d in rows} == set(status.actors)
        for d in rows:
            assert d.user_id == seats[d.player].user_id and d.seq <= status.seq
        turn = [d for d in rows if d.kind == "turn"]
        assert len(turn) == len(status.actors) and len(rows) == 3 * len(status.actors)
        assert all(d.due_at == clock.now() + 3600 for d in turn)
        clock.advance(60)
        await move(svc, gid)


async def test_reminder_then_timeout_then_autopilot(svc: GameService, store: Store, clock: FakeClock) -> None:
    timers = TimerSettings(move_seconds=3600, reminder_offsets=(600,), timeout_policy="ai",
                           misses_before_ai=2)
    gid = await started(svc, timers=timers)
    status = await svc.status(gid)
    reminder = next(d for d in status.deadlines if d.kind == "reminder")
    assert await svc.fire_deadline(reminder.deadline_id) is None  # not due yet
    clock.advance(3000)
    out = await svc.fire_deadline(reminder.deadline_id)
    assert out is not None and [n.kind for n in out.notices] == ["reminder"]
    assert out.notices[0].audience == status.waiting_for
    assert await svc.fire_deadline(reminder.deadline_id) is None  # idempotent
    assert await svc.fire_deadline("nope") is None
    autopilot = None
    for _ in range(20):
        status = await svc.status(gid)
        turn = next(d for d in status.deadlines if d.kind == "turn")
        clock.set(turn.due_at)
        out = await svc.fire_deadline(turn.deadline_id)
        assert out is not None
        assert "timeout" in [n.kind for n in out.notices]
        assert await svc.fire_deadline(turn.deadline_id) is None
        assert await store.get_deadline(turn.deadline_id) is None  # its clock was replaced
        if any(n.kind == "autopilot" for n in out.notices):
            autopilot = next(n for n in out.notices if n.kind == "autopilot")
            break
    assert autopilot is not None
    status = await svc.status(gid)
    seat = next(s for s in status.seats if s.seat == autopilot.data["seat"])
    assert seat.is_ai and seat.user_id == autopilot.data["user_id"] and seat.missed_deadlines == 2
    assert seat.user_id not in status.waiting_for
    logged = await store.actions(gid)
    assert {a.source for a in logged} >= {"timeout"}
    # the person takes the seat back
    assert seat.user_id is not None
    await svc.reclaim(gid, seat.user_id)
    assert not next(s for s in (await svc.status(gid)).seats if s.user_id == seat.user_id).is_ai
    assert await svc.verify_game(gid) == []


async def test_skip_policy_passes_the_turn(svc: GameService, store: Store, clock: FakeClock) -> None:
    timers = TimerSettings(move_seconds=600, reminder_offsets=(), timeout_policy="skip", misses_before_ai=0)
    gid = await started(svc, timers=timers)
    for _ in range(6):
        status = await svc.status(gid)
        turn = next(d for d in status.deadlines if d.kind == "turn")
        clock.set(turn.due_at)
        assert await svc.fire_deadline(turn.deadline_id) is not None
    kinds = {a.action["kind"] for a in await store.actions(gid) if a.source == "timeout"}
    assert kinds and kinds <= {"keep", "done", "end_turn", "give", "play", "choose", "expand"}
    assert all(not s.is_ai for s in (await svc.status(gid)).seats)


async def test_reminder_preferences_are_honoured(svc: GameService, store: Store, clock: FakeClock) -> None:
    for user in (1, 2, 3):
        await store.set_user_settings(UserSettings(user, reminders="none"), 0)
    gid = await started(svc, timers=TimerSettings(move_seconds=3600, reminder_offsets=(600, 1200)))
    assert [d.kind for d in (await svc.status(gid)).deadlines] == ["turn"]


async def test_pause_resume_and_abandon(svc: GameService, store: Store, clock: FakeClock) -> None:
    gid = await started(svc)
    old = (await svc.status(gid)).deadlines
    await svc.pause(gid, CREATOR)
    assert await store.game_deadlines(gid) == []
    paused = await svc.status(gid)
    assert paused.status == "paused" and paused.deadlines == ()  # nobody is on the clock
    assert await codes(move(svc, gid)) == "paused"
    assert await svc.fire_deadline(old[0].deadline_id) is None
    assert await codes(svc.pause(gid, CREATOR)) == "paused"
    clock.advance(500)
    out = await svc.resume(gid, CREATOR)
    new = [d for d in out.status.deadlines if d.kind == "turn"]
    assert new and new[0].due_at == clock.now() + out.status.timers.move_seconds
    await move(svc, gid)
    await svc.abandon(gid, CREATOR)
    assert await store.game_deadlines(gid) == []
    assert await codes(svc.submit(gid, 1, {"kind": "keep"}, 1)) == "finished"
    assert await codes(svc.resume(gid, CREATOR)) == "not_paused"
    assert await codes(svc.abandon(gid, CREATOR)) == "finished"


# -- seats change hands ------------------------------------------------------------------


async def test_replace_by_a_person_resign_and_kick(svc: GameService, store: Store) -> None:
    gid = await started(svc, (1, 2, 3, 4))
    status = await svc.status(gid)
    actor = status.waiting_for[0]
    seat = next(s.seat for s in status.seats if s.user_id == actor)
    assert seat is not None
    assert await codes(svc.replace_seat(gid, 77, seat, new_user_id=5)) == "not_allowed"
    assert await codes(svc.replace_seat(gid, CREATOR, seat, new_user_id=2 if actor != 2 else 3)) == \
        "already_seated"
    out = await svc.replace_seat(gid, CREATOR, seat, new_user_id=5, new_name="Eve")
    assert out.status.waiting_for == (5,)
    assert await codes(svc.submit(gid, actor, {"kind": "keep"}, 0)) == "not_seated"
    await move(svc, gid, 5)
    # a player resigns, another is kicked: the AI plays both seats
    others = [s.user_id for s in (await svc.status(gid)).seats if s.user_id not in (5, CREATOR)]
    assert others[0] is not None and others[1] is not None
    await svc.resign(gid, others[0])
    await svc.kick(gid, CREATOR, others[1])
    status = await svc.status(gid)
    assert sum(s.is_ai for s in status.seats) == 2
    assert set(status.waiting_for) <= {5, CREATOR}
    assert await svc.verify_game(gid) == []


async def test_a_whole_game_played_by_ai_seats(svc: GameService, store: Store) -> None:
    gid = await started(svc, (1, 2, 3), ais=3)
    status = await svc.status(gid)
    humans = [s for s in status.seats if not s.is_ai]
    for seat in humans:
        assert seat.seat is not None
        await svc.replace_seat(gid, CREATOR, seat.seat)  # by the AI
    status = await svc.status(gid)
    assert status.status == "over"
    assert status.scores is not None and len(status.scores) == 6
    assert status.ranking is not None and sorted(status.ranking) == list(range(6))
    row = await store.get_game(gid)
    assert row is not None and row.status == "over" and row.result is not None
    assert list(row.result["scores"]) == list(status.scores)
    assert await store.game_deadlines(gid) == []
    count, low, high = await store.log_bounds(gid)
    assert (low, high) == (1, count) and high == status.seq
    assert [c.seq for c in await store.checkpoints(gid)] == list(range(20, high + 1, 20))
    assert await svc.verify_game(gid) == []
    game = get_game(GAME)
    log = [game.codec.decode(a.action) for a in await store.actions(gid)]
    final = replay(game, 6, row.options, row.seed, log)
    assert game.scores(final) == list(status.scores)


# -- loading and recovery ----------------------------------------------------------------


async def test_loading_replays_the_log_after_the_snapshot(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, clock, id_factory=ids())
    gid = await started(svc)
    for _ in range(12):
        await move(svc, gid)
    seq, state = await svc.engine_state(gid)
    game = get_game(GAME)
    # an action logged after the snapshot (as a batched writer could leave it)
    status = await svc.status(gid)
    user = status.waiting_for[0]
    player = next(s.seat for s in status.seats if s.user_id == user)
    assert player is not None
    action = make_policy(GAME, "random", 5).choose(state, player)
    entry = ActionRow(gid, seq + 1, player, action.to_json(), "human", int(clock.now()), user)
    await store.apply_change(GameChange(gid, seq, int(clock.now()), seq + 1, actions=[entry]))
    fresh = GameService(store, clock, cache_size=0)
    seq2, loaded = await fresh.engine_state(gid)
    assert seq2 == seq + 1
    assert game.to_json(loaded) == game.to_json(game.apply(state, action).state)
    problems = await fresh.verify_game(gid)
    assert problems == [] or all("deadline" in p for p in problems)


async def test_service_without_cache_behaves_the_same(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, clock, cache_size=0, id_factory=ids())
    gid = await started(svc)
    for _ in range(15):
        await move(svc, gid)
    assert await svc.verify_game(gid) == []


async def test_startup_lets_a_stuck_ai_move_and_starts_missing_clocks(store: Store, clock: FakeClock) -> None:
    svc = GameService(store, clock, id_factory=ids())
    gid = await started(svc, (1, 2, 3))
    status = await svc.status(gid)
    actor = status.waiting_for[0]
    seat = next(s for s in (await store.get_seats(gid)) if s.user_id == actor)
    # as if the process died after handing the seat to the AI but before the AI moved
    await store.apply_change(GameChange(gid, 0, 0, 0, seats_upsert=[replace(seat, is_ai=True, user_id=None)],
                                        clear_all_deadlines=True))
    restarted = GameService(store, clock)
    outcomes = await restarted.startup(verify=True)
    assert [o.game_id for o in outcomes] == [gid]
    after = await restarted.status(gid)
    assert after.seq > 0 and after.waiting_for and after.deadlines
    assert await restarted.startup() == []  # nothing left to do
    assert await restarted.verify_game(gid) == []


async def test_verify_spots_a_tampered_snapshot(svc: GameService, store: Store) -> None:
    gid = await started(svc)
    for _ in range(5):
        await move(svc, gid)
    snapshot = await store.snapshot(gid)
    assert snapshot is not None
    data = json.loads(snapshot.state_json)
    data["scores"] = [s + 1 for s in data["scores"]]
    async with store.transaction() as conn:  # behind the service's back, on either database
        await conn.execute("UPDATE snapshots SET state_json = ? WHERE game_id = ?", (json.dumps(data), gid))
    assert any("differs" in p for p in await svc.verify_game(gid))


async def test_listeners_hear_every_change(svc: GameService) -> None:
    heard: list[Outcome] = []

    async def listener(outcome: Outcome) -> None:
        heard.append(outcome)

    def broken(outcome: Outcome) -> None:
        raise RuntimeError("listener bug")

    svc.subscribe(broken)
    svc.subscribe(listener)
    gid = await started(svc)
    await move(svc, gid)
    assert [o.game_id for o in heard] == [gid] * 5  # lobby, 2 joins, start, move
    assert heard[-1].status.deadlines


# -- the game contract: every game alike (issue 13) -------------------------------------------
TOY = "toy-goofspiel"


async def test_an_engine_event_named_like_a_platform_notice_is_never_taken_for_one() -> None:
    """The 5-epoch engine's ``resigned`` (an empire lays down its armies) was worded as "a player
    resigned; the AI plays the seat" and crashed the console's listener on a missing ``seat``."""
    import tests.toy.spec  # noqa: F401
    from bot.leagues.reliability import records_from_notices
    from bot.models import PUBLIC, Notice, NoticeKind
    from bot.notices import describe_notice
    from engine.core import Event

    heard: list[Event] = []

    class Words:
        id = TOY

        def describe_event(self, event: Event, names: Any) -> str:
            heard.append(event)
            return f"The empire of {names[event.data['player']]} lays down its armies."

    event = Event("resigned", {"player": 1})
    notice = Notice("g1", None, dict(event.data), PUBLIC, 7, event=event)
    names = ["alice (Red)", "bob (Blue)"]
    text = describe_notice(notice, names, Words(), str)  # type: ignore[arg-type]
    assert text == "The empire of bob (Blue) lays down its armies." and heard == [event]
    assert notice.kind is None and records_from_notices([notice], 0) == []  # no one resigned
    data = {"seat": 1, "name": "bob (Blue)", "old_user_id": 2}
    platform = Notice("g1", NoticeKind.resigned, data, PUBLIC, 7)
    assert describe_notice(platform, names, Words(), str) == (  # type: ignore[arg-type]
        "bob (Blue) resigned from game g1; the AI plays that seat to the end.")
    assert [r.kind for r in records_from_notices([platform], 0)] == ["abandoned"]
    with pytest.raises(TypeError):
        Notice("g1", "resigned", {}, PUBLIC, 7)  # type: ignore[arg-type]  # a bare name is no kind
    with pytest.raises(ValueError):
        Notice("g1", NoticeKind.resigned, {}, PUBLIC, 7, event=event)  # never both
    with pytest.raises(ValueError):
        Notice("g1", None, {}, PUBLIC, 7)  # never neither


async def test_the_skip_policy_plays_the_games_own_timeout_action(
        svc: GameService, store: Store, clock: FakeClock) -> None:
    """``PASSIVE_KINDS`` did not know the 5-epoch ``stop``, so "skip" played the AI there; now every
    game says its passive move itself (``timeout_action``)."""
    import tests.toy.spec  # noqa: F401

    timers = TimerSettings(move_seconds=600, reminder_offsets=(), timeout_policy="skip", misses_before_ai=0)
    out = await svc.create_lobby(1, "alice", TOY, timers=timers)
    await svc.add_ai(out.game_id, 1, policy="greedy")
    await svc.start(out.game_id, 1)
    _, state = await svc.engine_state(out.game_id)
    seat = next(s.seat for s in (await svc.status(out.game_id)).seats if s.user_id == 1)
    assert seat is not None
    passive = get_game(TOY).timeout_action(state, seat)
    clock.advance(600)
    turn = next(d for d in (await svc.status(out.game_id)).deadlines if d.kind == "turn")
    fired = await svc.fire_deadline(turn.deadline_id)
    assert fired is not None and [n.data["policy"] for n in fired.notices if n.kind == "timeout"] == ["skip"]
    played = [a for a in await store.actions(out.game_id) if a.source == "timeout"]
    assert [a.action for a in played] == [passive.to_json()]


async def test_the_end_is_recorded_and_said_with_why_the_game_ended(svc: GameService, store: Store) -> None:
    """Issue 31: the result keeps the game's outcome (scores, places, why), the game-over notice says
    why the game ended before the scores, and a tie the game does not break shares first place; a
    result stored before the reason was kept still reads."""
    import tests.toy.spec  # noqa: F401
    from bot.models import NoticeKind
    from bot.notices import describe_notice
    from tests.toy.game import Bid

    gid = (await svc.create_lobby(1, "alice", TOY)).game_id
    await svc.join(gid, 2, "bob")
    await svc.start(gid, 1)
    seats = {s.user_id: s.seat for s in (await svc.status(gid)).seats}
    # equal bids every round: nobody takes a prize, nobody wins alone (the last card is played for each)
    for card in (1, 2, 3, 4):
        for user in (1, 2):
            seat = seats[user]
            assert seat is not None
            seq = (await svc.status(gid)).seq
            out = await svc.submit(gid, user, Bid(player=seat, card=card).to_json(), seq)
    status = out.status
    assert status.status == "over" and status.scores == (0, 0) and status.places == ((0, 1),)
    assert status.why == "The game ends: all 5 prizes have been bid for."
    row = await store.get_game(gid)
    assert row is not None and row.result == {"scores": [0, 0], "ranking": [0, 1], "places": [[0, 1]],
                                              "reason": "last_round", "why": status.why}
    over = [n for n in out.notices if n.kind is NoticeKind.game_over]
    assert len(over) == 1
    said = describe_notice(over[0], status.seat_names, get_game(TOY), str)
    first, second = status.seat_names  # seats 0 and 1, whoever sits where
    assert said == (f"The game ends: all 5 prizes have been bid for. Final scores: {first} 0, {second} 0. "
                    f"Winners, sharing first place: {first} and {second}.")
    # a row written before games said why they ended: its scores and places read, no reason is made up
    async with store.transaction() as conn:
        await conn.execute("UPDATE games SET result_json = ? WHERE game_id = ?",
                           (json.dumps({"scores": [0, 0], "ranking": [0, 1], "places": [[0, 1]]}), gid))
    svc.forget()
    old = await svc.status(gid)
    assert (old.scores, old.places, old.why) == ((0, 0), ((0, 1),), None)


async def test_seat_names_and_the_decision_come_from_the_spec_and_the_game(svc: GameService) -> None:
    import tests.toy.spec  # noqa: F401
    from engine.registry import spec

    out = await svc.create_lobby(1, "alice", TOY)
    await svc.add_ai(out.game_id, 1)
    assert (await svc.status(out.game_id)).seat_names == ()  # no seat order before the start
    await svc.start(out.game_id, 1)
    svc.forget()  # names survive a restart: they come from the stored seats, never a user id
    status = await svc.status(out.game_id)
    seat = next(s.seat for s in status.seats if s.user_id == 1)
    assert seat is not None
    assert status.seat_names[seat] == f"alice ({spec(TOY).colour(seat)})"
    assert status.seat_names[1 - seat] == f"AI 1 ({spec(TOY).colour(1 - seat)})"
    seq, decision = await svc.decision(out.game_id, 1)
    assert seq == status.seq and decision is not None and decision.player == seat
    assert [c.label for c in decision.choices] == [f"Bid {n}" for n in range(1, 6)]
    assert await svc.decision(out.game_id, 50) == (status.seq, None)  # not seated: nothing to decide


async def test_a_lobby_passes_on_when_its_creator_leaves_and_closes_when_empty(
        svc: GameService, store: Store, clock: FakeClock) -> None:
    import tests.toy.spec  # noqa: F401

    out = await svc.create_lobby(1, "alice", TOY)
    gid = out.game_id
    await svc.join(gid, 2, "bob")
    left = await svc.leave(gid, 1)
    assert [n.kind for n in left.notices] == ["player_left", "lobby_passed"]
    assert left.status.creator_id == 2 and (await store.get_game(gid)).creator_id == 2  # type: ignore[union-attr]
    await svc.add_ai(gid, 2)  # the new creator manages the lobby
    assert await codes(svc.add_ai(gid, 1)) == "not_allowed"
    closed = await svc.leave(gid, 2)
    assert [n.kind for n in closed.notices] == ["player_left", "lobby_closed"]
    assert closed.status.status == "abandoned"
    # issue 14: a closed lobby still loads after a restart (no state, nothing to replay)
    fresh = GameService(store, clock)
    assert (await fresh.status(gid)).status == "abandoned"
    assert await codes(fresh.join(gid, 3, "carol")) == "not_in_lobby"  # a closed lobby takes nobody


async def test_remove_ai_takes_an_ai_seat_out_of_a_lobby(svc: GameService) -> None:
    import tests.toy.spec  # noqa: F401

    gid = (await svc.create_lobby(1, "alice", TOY)).game_id
    await svc.add_ai(gid, 1)
    assert await codes(svc.remove_ai(gid, 1, "AI 7")) == "not_seated"
    assert await codes(svc.remove_ai(gid, 50, "AI 1")) == "not_allowed"
    out = await svc.remove_ai(gid, 1, "ai 1")
    assert [n.kind for n in out.notices] == ["seat_removed"] and len(out.status.seats) == 1


async def test_every_platform_notice_is_worded_naming_people_as_seats() -> None:
    """Each NoticeKind has its one wording (bot.notices): names as 'alice (Blue)', no raw id, no data."""
    import tests.toy.spec  # noqa: F401
    from bot.models import PUBLIC, Notice, NoticeKind
    from bot.notices import describe_notice

    data: dict[str, Any] = {
        "name": "alice (Blue)", "title": "Goofspiel", "seat": 1, "user_id": 1_000_123,
        "old_user_id": 1_000_123,
        "by": 1_000_456, "by_name": "the game's creator", "due_at": 86400, "missed": 2, "policy": "ai",
        "days": 2, "used": 2, "cap": 14, "away_until": 86400, "ai": True, "reason": "resigned",
        "seats": [{"seat": 0, "name": "bob (Red)", "user_id": 1_000_789, "ai": False},
                  {"seat": 1, "name": "AI 1 (Blue)", "user_id": None, "ai": True}],
        "scores": [3, 9], "ranking": [1, 0], "names": ["bob (Red)", "alice (Blue)"],
    }
    game = get_game(TOY)
    for kind in NoticeKind:
        text = describe_notice(Notice("g1", kind, data, PUBLIC, 3), ["bob (Red)", "alice (Blue)"], game,
                               lambda ts: "tomorrow")
        assert text and "{" not in text and "1000" not in text, (kind, text)
    over = describe_notice(Notice("g1", NoticeKind.game_over, data, PUBLIC, 3), [], game, str)
    assert over == "Game over. Final scores: alice (Blue) 9, bob (Red) 3. Winner: alice (Blue)."
    paused = describe_notice(Notice("g1", NoticeKind.paused, data, PUBLIC, 3), [], game, str)
    assert paused == "Game g1 is paused by the game's creator; the clocks are stopped."
