"""Stepping through a game (issue 30): the board a seat was allowed to see after move N, rebuilt from the
stored records, and a finished game's timelapse. No test here names a game: they run over the registry."""

from __future__ import annotations

import io
import itertools
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

import tests.toy.spec  # noqa: F401  (the toy game keeps this too)
from bot.clock import FakeClock
from bot.digest import draw_timelapse
from bot.service import GameService, ServiceError
from bot.service.offload import cpu
from bot.store import Store
from engine import registry
from engine.core import players_at_start, replay
from engine.spec import GameSpec
from render.timelapse import MAX_BYTES

SPECS = registry.specs()
PEOPLE = (1, 2)


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


async def played(svc: GameService, spec: GameSpec, clicks: int) -> str:
    """A game of two people (and AI seats to the table's least), played ``clicks`` random moves on."""
    gid = (await svc.create_lobby(PEOPLE[0], "ann", spec.id)).game_id
    await svc.join(gid, PEOPLE[1], "bob")
    for _ in range(spec.min_players - len(PEOPLE)):
        await svc.add_ai(gid, PEOPLE[0])
    await svc.start(gid, PEOPLE[0])
    rng = random.Random(spec.id)
    for _ in range(clicks):
        status = await svc.status(gid)
        if status.status != "active":
            break
        user = rng.choice(status.waiting_for)
        seat = next(s.seat for s in status.seats if s.user_id == user)
        assert seat is not None
        seq, state = await svc.engine_state(gid)
        await svc.submit(gid, user, rng.choice(list(spec.load().legal_actions(state, seat))).to_json(), seq)
        if rng.random() < 0.2 and await svc.can_undo(gid, user):  # undo entries in the log too
            await svc.undo(gid, user, (await svc.status(gid)).seq)
    return gid


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
@pytest.mark.asyncio
async def test_the_board_at_move_n_is_what_that_seat_saw_then(spec: GameSpec, store: Store) -> None:
    """The view after move N of each seat (and of a spectator) equals that seat's view of a replay of the
    log to N from the seed: hidden information as at that moment, nothing of later moves or of other
    seats. The service rebuilds it from the newest checkpoint before N (every 7 moves here)."""
    svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 13, checkpoint_every=7)
    gid = await played(svc, spec, 60)
    game = spec.load()
    row = await store.get_game(gid)
    assert row is not None
    entries = [r.action for r in await store.records(gid)]
    seated = len([s for s in await store.get_seats(gid) if s.seat_order is not None])
    seats = {s.user_id: s.seat_order for s in await store.get_seats(gid) if s.user_id is not None}
    for move in sorted({0, 1, 6, 7, 8, len(entries) // 2, len(entries)}):
        if move > len(entries):
            continue
        state = await cpu(replay, game, players_at_start(seated, entries), row.options, row.seed,
                          entries[:move])
        for user in (*PEOPLE, None):
            seen = await svc.view_at(gid, user, move)
            viewer = seats.get(user) if user is not None else None
            expected = dict(game.view(state, viewer))
            expected["seq"] = move
            assert seen == expected, (move, user)
    with pytest.raises(ServiceError) as info:
        await svc.view_at(gid, PEOPLE[0], len(entries) + 1)
    assert info.value.code == "bad_move" and "choose a move from 0" in info.value.message


@pytest.mark.asyncio
async def test_a_game_of_older_rules_is_not_drawn_again(store: Store) -> None:
    svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 13)
    gid = await played(svc, SPECS[0], 5)
    async with store.transaction() as conn:
        await conn.execute("UPDATE games SET rules_version = '0+old' WHERE game_id = ?", (gid,))
    svc.forget()
    with pytest.raises(ServiceError) as info:
        await svc.view_at(gid, PEOPLE[0], 1)
    assert info.value.code == "older_rules" and "older rules" in info.value.message


LONG = {"seven-ages"}  # a whole game takes seconds to play and draw: in the slow sweep


@pytest.mark.parametrize("spec", [pytest.param(s, marks=pytest.mark.slow) if s.id in LONG else s
                                  for s in SPECS], ids=spec_id)
@pytest.mark.asyncio
async def test_a_whole_games_timelapse_opens_with_a_frame_a_stage_under_ten_mib(spec: GameSpec,
                                                                               tmp_path: Path) -> None:
    """A game the AI plays to its end: its timelapse is an animated picture at chat width, one frame for
    the set-up and for each stage, the stage written on it, under Discord's 10 MiB."""
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        await timelapse_of(spec, store)
    finally:
        await store.close()


async def timelapse_of(spec: GameSpec, store: Store) -> None:
    svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 5)
    gid = (await svc.create_lobby(PEOPLE[0], "ann", spec.id, creator_joins=False)).game_id
    for _ in range(spec.min_players):
        await svc.add_ai(gid, PEOPLE[0])
    await svc.start(gid, PEOPLE[0])
    status = await svc.status(gid)
    if status.status != "over":  # a game the AI does not end within the test's patience
        pytest.skip(f"{spec.id}: not over after start")
    stages = await svc.stage_views(gid)
    assert len(stages) >= 2 and len({stage for stage, _ in stages}) == len(stages)
    data = await cpu(draw_timelapse, spec.id, stages)
    assert len(data) <= MAX_BYTES
    picture = Image.open(io.BytesIO(data))
    assert picture.format == "WEBP" and picture.width == 800
    assert getattr(picture, "n_frames", 1) == len(stages)


@pytest.mark.asyncio
async def test_the_console_draws_a_past_board_and_the_timelapse(tmp_path: Path) -> None:
    """``board N`` writes the board as the reader saw it after move N; ``timelapse`` the whole game."""
    from bot.console import Console
    from bot.lines import LinesFrom

    store = await Store.open(tmp_path / "annals.sqlite3")
    out = io.StringIO()
    try:
        svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 5)
        console = Console(svc, out, out_dir=tmp_path / "out")
        await console.run(LinesFrom(["/as ann create toy-goofspiel", "/as ann add-ai", "/as ann start",
                                     "/as ann play 1", "/as ann board 0", "/as ann board 99",
                                     "/as ann timelapse"]))
    finally:
        await store.close()
    said = out.getvalue()
    assert "annals-g1-0-ann.png" in said  # the board at move 0, as ann saw it
    assert "choose a move from 0" in said  # a move the game has not reached
    assert "timelapse of g1" in said and any((tmp_path / "out").glob("*-timelapse.webp"))
