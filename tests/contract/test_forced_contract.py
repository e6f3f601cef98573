"""Forced moves play themselves (issue 28), one suite for every registered game: no test here names a game.

"When a seat's decision has exactly one choice and taking it shows others nothing the seat's clicking
would not, the platform plays it at once, says so, and moves on to the next decision." The safe default
(:func:`engine.core.only_move`): the move is the seat's only one whatever it holds in private.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import tests.toy.spec  # noqa: F401  (the toy game registers itself and must keep the contract too)
from bot.clock import FakeClock
from bot.models import NoticeKind
from bot.service import GameService
from bot.store import Store
from engine import registry
from engine.core import Action, only_move
from engine.spec import GameSpec

SPECS = registry.specs()
PEOPLE = (1, 2)
CLICKS = 300


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def ids() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"g{next(counter)}"


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
@pytest.mark.asyncio
async def test_nobody_is_asked_a_move_the_platform_may_play_and_an_undo_takes_it_back_with_theirs(
        spec: GameSpec, store: Store) -> None:
    """Two people and the AI play; after every click no person is left on a decision whose only move
    tells nothing (it was played, and said in public) unless playing it would make their own last move
    final (they confirm it, or take that move back), and an undo of a move that set off
    moves played for them takes them all back: the state is the one before the person's own move."""
    svc = GameService(store, FakeClock(), id_factory=ids(), seed_factory=lambda: 11)
    gid = (await svc.create_lobby(PEOPLE[0], "ann", spec.id)).game_id
    await svc.join(gid, PEOPLE[1], "bob")
    for _ in range(spec.min_players - len(PEOPLE)):
        await svc.add_ai(gid, PEOPLE[0])
    start = await svc.start(gid, PEOPLE[0])
    game = spec.load()
    rng = random.Random(spec.id)
    forced = [n for n in start.notices if n.kind is NoticeKind.forced]
    asked: Counter[str] = Counter()
    for _ in range(CLICKS):
        status = await svc.status(gid)
        if status.status != "active":
            break
        seq, state = await svc.engine_state(gid)
        for seat in status.seats:
            if seat.seat is None or seat.is_ai or seat.seat not in status.actors or seat.user_id is None:
                continue
            move = game.forced(state, seat.seat)
            if move is None:
                lone = len(game.legal_actions(state, seat.seat)) == 1
                asked["a lone move hanging on a secret" if lone else "a real choice"] += 1
                continue
            # the one case a lone move is asked: played, it would make their last move final (an
            # "end the turn" after a move they may still take back): they confirm it, or take it back
            assert await svc.can_undo(gid, seat.user_id), f"{seat.name} is asked a move played for them"
            assert not game.undoable(state, move, game.apply(state, move)), seat.name
            asked["a lone move that would seal the last one"] += 1
        user = rng.choice(status.waiting_for)
        player = next(s.seat for s in status.seats if s.user_id == user)
        assert player is not None
        before = json.loads(game.dumps(state))
        legal = game.legal_actions(state, player)
        out = await svc.submit(gid, user, rng.choice(list(legal)).to_json(), seq)
        played = [n for n in out.notices if n.kind is NoticeKind.forced]
        forced += played
        if any(n.data["seat"] == player for n in played) and await svc.can_undo(gid, user):
            await svc.undo(gid, user, (await svc.status(gid)).seq)  # their move and the moves played after it
            assert json.loads(game.dumps((await svc.engine_state(gid))[1])) == before
    for notice in forced:  # said in public, naming the seat; which move, to its person alone
        assert notice.data["name"].startswith(("ann (", "bob (")), notice
        assert ("choice" in notice.data) == (notice.audience != "public"), notice
    assert not forced or any(n.audience == "public" for n in forced)
    assert await svc.verify_game(gid) == []  # the log, forced moves and undo entries too, replays
    print(f"\n{spec.id}: {len(forced)} moves played for a person; asked: {dict(asked)}")


def test_a_lone_move_that_hangs_on_a_secret_is_asked() -> None:
    """The default rule: a seat whose only move would be another in a state differing only in what it
    alone holds is asked (playing it at once would tell the others what it holds)."""

    @dataclass(frozen=True)
    class Pass(Action):
        kind = "pass"

    @dataclass(frozen=True)
    class Play(Action):
        kind = "play"

    class Secret:
        def legal_actions(self, state: str, player: int) -> list[Action]:
            return [Pass(player)] if state == "no card" else [Pass(player), Play(player)]

        def private_variants(self, state: str, seat: int) -> list[str]:
            return ["a card"] if state == "no card" else []

    class Open(Secret):
        def private_variants(self, state: str, seat: int) -> list[str]:
            return []

    class OneCard(Secret):  # its one card, whichever: a single move in every state the others imagine
        def legal_actions(self, state: str, player: int) -> list[Action]:
            return [Play(player)] if state == "card A" else [Pass(player)]

        def private_variants(self, state: str, seat: int) -> list[str]:
            return ["card B"]

    assert only_move(Secret(), "no card", 0) is None
    assert only_move(Open(), "no card", 0) == Pass(0)
    assert only_move(Open(), "a card", 0) is None
    assert only_move(OneCard(), "card A", 0) == Play(0)


@pytest.mark.asyncio
async def test_the_log_says_a_move_was_played_for_its_seat_and_its_pages_agree(store: Store) -> None:
    """The public log reads the record of a forced move with a line saying it was the seat's only
    choice, in the whole log and page by page alike."""
    lines = 0
    for spec in SPECS:
        svc = GameService(store, FakeClock(), seed_factory=lambda: 11)
        gid = (await svc.create_lobby(PEOPLE[0], "ann", spec.id)).game_id
        for _ in range(spec.min_players - 1):
            await svc.add_ai(gid, PEOPLE[0])
        await svc.start(gid, PEOPLE[0])
        rng = random.Random(spec.id)
        for _ in range(60):
            status = await svc.status(gid)
            if status.status != "active" or PEOPLE[0] not in status.waiting_for:
                break
            seat = next(s.seat for s in status.seats if s.user_id == PEOPLE[0])
            assert seat is not None
            seq, state = await svc.engine_state(gid)
            legal = spec.load().legal_actions(state, seat)
            await svc.submit(gid, PEOPLE[0], rng.choice(list(legal)).to_json(), seq)
        upto, whole = await svc.public_log(gid)
        _, total, _ = await svc.public_log_slice(gid, 0, 0)
        pages = [(await svc.public_log_slice(gid, first, 7))[2] for first in range(0, total, 7)]
        assert [e for page in pages for e in page] == whole
        said = [e for e in whole if e.notice is NoticeKind.forced]
        # the store numbers its records by log index; players read moves numbered without the quiet
        # ones (no gap where one was made): a record's number is its index less the quiet entries before it
        row = await store.get_game(gid)
        assert row is not None and row.public_seq == upto
        assert all(e.seq <= upto for e in whole)  # numbered as the counter players see, never by log index
        quiet = await store.quiet_entries(gid, upto_seq=row.seq)
        records = [r for r in await store.standing(gid, upto_seq=row.seq) if r.source == "forced"]
        assert [e.seq for e in said] == [r.seq - sum(q < r.seq for q in quiet) for r in records]
        lines += len(said)
    assert lines > 0  # some game of the registry met a forced move
