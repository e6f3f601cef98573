"""Quiet moves leave no trace, for every registered game (issue 27: "hidden orders are hidden state").

A quiet move (:meth:`engine.core.Game.quiet`: an order armed ahead, a private preference) tells no seat
but its sender anything. The facet ``quiet_moves`` is checked both ways against random play: a game that
declares it offers quiet moves (:meth:`engine.core.Game.quiet_examples`), one that does not offers none
and plays none. For the games that declare it (selected by the facet, never by id), each example is
played on sampled states of random play: every other seat's view and decision, and a spectator's view,
are the same after it (the view's counter included), its events are its sender's only, and
:class:`engine.core.LogReplay` lets its sender take it back past other seats' quiet moves. Then through
the service: the status counter, every other seat's view, decision, panel tokens (the custom ids of its
buttons) and news stay the same, an old click of another seat still counts, the sender's undo is as
quiet as the move, and a twin game played without it looks the same; an undo of another seat that
reaches past it keeps it.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

import tests.toy.spec  # noqa: F401  (the toy game declares its facets too)
from bot.clock import FakeClock
from bot.discord.panel import turn_panel
from bot.models import GameStatus
from bot.service import GameService
from bot.store import Store
from engine import registry
from engine.core import Action, Game, LogReplay, decide, replay, undo_entry
from engine.spec import GameSpec
from tests.contract.checks import canonical

SPECS = registry.specs()
QUIET = [s for s in SPECS if s.quiet_moves]
SEED = 3
MOVES = 500  # random moves per playout: every game has dealt its secrets and started play well before
SAMPLE_EVERY = 25  # states whose quiet moves are all tried (each costs a view and decision per seat)
PEOPLE = (101, 102, 103, 104, 105)  # the people of the service game (user ids), one per seat
TRIES = 4  # games started through the service to find an order to arm (random play may end one first)


def spec_id(value: object) -> str:
    return value.id if isinstance(value, GameSpec) else str(value)


def looks(game: Game, state: Any, seat: int | None, names: tuple[str, ...]) -> tuple[str, str]:
    """What ``seat`` (None: a spectator) can tell of ``state``: its view and its decision, canonical."""
    decision = decide(game, state, seat, names) if seat is not None else None
    return canonical(game.view(state, seat)), repr(decision)


@dataclass
class Tried:
    """What the quiet moves of one playout did."""

    played: int = 0  # quiet examples played
    kinds: set[str] = field(default_factory=set)
    quiet_in_play: int = 0  # moves a step offers (legal_actions) that the game calls quiet (none may be)
    problems: list[str] = field(default_factory=list)


def try_quiet(spec: GameSpec) -> Tried:
    """Random play at the most seats; at every :data:`SAMPLE_EVERY` th state each seat's quiet examples."""
    game = spec.load()
    players = spec.max_players
    names = tuple(f"p{seat} (Seat {seat})" for seat in range(players))
    state = game.setup(players, spec.default_options(), SEED)
    ais = [spec.make_policy("random", SEED * 7 + p) for p in range(players)]
    pick = random.Random(SEED)
    tried = Tried()
    for step in range(MOVES):
        if game.is_over(state):
            break
        if step % SAMPLE_EVERY == 0:
            for seat in range(players):
                for move in game.quiet_examples(state, seat):
                    check_one(game, state, move, names, tried)
        player = pick.choice(sorted(game.actors(state)))
        # a computer player may send a quiet move of its own accord (an order armed ahead) as a person may;
        # what a step asks of its player must never be one
        tried.quiet_in_play += sum(game.quiet(state, m) for m in game.legal_actions(state, player))
        move = ais[player].choose(state, player)
        state = game.apply(state, move).state
    return tried


def check_one(game: Game, state: Any, move: Action, names: tuple[str, ...], tried: Tried) -> None:
    """One quiet example on ``state``: nobody else can tell, and its sender may take it back."""
    tried.played += 1
    tried.kinds.add(move.kind)
    where = f"{move} at a state of phase {game.stage(game.view(state, None))!r}"
    if not game.quiet(state, move):
        tried.problems.append(f"{where}: offered as quiet, yet Game.quiet says it is not")
        return
    result = game.apply(state, move)
    if canonical(game.to_json(result.state)) == canonical(game.to_json(state)):
        tried.problems.append(f"{where}: changed nothing (an example must do something to check)")
    others = [s for s in range(len(names)) if s != move.player]
    for seat in [*others, None]:
        if looks(game, result.state, seat, names) != looks(game, state, seat, names):
            tried.problems.append(f"{where}: {'a spectator' if seat is None else names[seat]} can tell")
    told = [e for e in result.events if e.audience != (move.player,)]
    if told:
        tried.problems.append(f"{where}: tells others {[e.type for e in told]}")
    # its sender takes it back past another seat's quiet move made since, which stays
    run = LogReplay(game, state)
    run.play(move)
    later = next((m for s in others for m in game.quiet_examples(run.state, s)), None)
    if later is not None:
        run.play(later)
    run.apply(undo_entry(move.player))
    expected = game.apply(state, later).state if later is not None else state
    if canonical(game.to_json(run.state)) != canonical(game.to_json(expected)):
        tried.problems.append(f"{where}: taking it back did not restore the state (with {later} kept)")
    # what it opens (an order armed may be withdrawn), once per kind
    for follow in game.quiet_examples(result.state, move.player):
        if follow.kind not in tried.kinds:
            check_one(game, result.state, follow, names, tried)


@pytest.mark.parametrize("spec", SPECS, ids=spec_id)
def test_quiet_moves_are_declared_exactly_when_offered_and_tell_no_one(spec: GameSpec) -> None:
    tried = try_quiet(spec)
    if spec.quiet_moves:
        assert tried.played, f"{spec.title} declares quiet moves, yet offered none in {MOVES} moves"
        assert not tried.problems, tried.problems[:5]
    else:
        assert not tried.played, f"{spec.title} offers quiet moves: its spec must declare quiet_moves"
    # a quiet move is sent at any time by a seat that chose to (a computer player too: it arms orders),
    # never one of the moves a step offers
    assert not tried.quiet_in_play, f"{spec.title} calls {tried.quiet_in_play} moves of its steps quiet"


# == through the service =========================================================================
@dataclass(frozen=True)
class Seen:
    """What one person can tell of a game through the service and the Discord panel."""

    seq: int
    view: str
    decision: str
    tokens: tuple[str, ...]
    can_undo: bool
    news: str


async def seen_by(service: GameService, game_id: str, user: int, seat: int) -> Seen:
    turn = await service.turn(game_id, user)
    panel = turn_panel(turn, user, undo=True).view
    tokens = tuple(str(getattr(item, "custom_id", "")) for item in panel.children) if panel else ()
    _, news = await service.since_last_move(game_id, seat)
    return Seen(turn.seq, canonical(await service.view(game_id, user)), repr(turn.decision), tokens,
                turn.can_undo, repr(news))


async def counters(service: GameService, game_id: str) -> tuple[int, str]:
    """The status counter and the public log, as anyone reads them."""
    seq, log = await service.public_log(game_id)
    status: GameStatus = await service.status(game_id)
    assert status.seq == seq
    return status.seq, repr(log)


@dataclass
class Found:
    """A game where a seat has a quiet move while another is to move, and how it got there."""

    game_id: str
    seed: int
    seats: dict[int, int]  # person by seat
    seat: int
    move: Action
    played: list[tuple[int, dict[str, Any]]]  # (person, move) of every move sent to reach it


async def quiet_position(service: GameService, spec: GameSpec, players: int) -> Found:
    """Start games of people and play random moves of those to move until a seat has an order to arm
    (a quiet move other than a preference: the rarer kind) while another seat is to move; a game that
    ends first gives way to the next (a few tries), then any quiet move will do."""
    game = spec.load()
    for n in range(TRIES):
        game_id = await start(service, spec, players, n)
        status = await service.status(game_id)
        seats = {s.seat: s.user_id for s in status.seats if s.seat is not None and s.user_id is not None}
        pick = random.Random(n)
        played: list[tuple[int, dict[str, Any]]] = []
        for _ in range(MOVES):
            status = await service.status(game_id)
            if status.status != "active":
                break
            _, state = await service.engine_state(game_id)
            actors = sorted(game.actors(state))
            for seat in seats:
                if not [a for a in actors if a != seat]:
                    continue
                examples = list(game.quiet_examples(state, seat))
                rare = [m for m in examples if m.kind != "prefer"]
                if rare or (examples and n == TRIES - 1):
                    return Found(game_id, n, seats, seat, (rare or examples)[0], played)
            mover = pick.choice(actors)
            move = pick.choice(list(game.legal_actions(state, mover))).to_json()
            played.append((seats[mover], move))
            await service.submit(game_id, seats[mover], move, status.seq)
    raise AssertionError(f"{spec.title} offered no quiet move in {TRIES} games")


def quiet_service(store: Store) -> GameService:
    """A service over ``store`` on a fake clock, its game ids "quiet0", "quiet1", ..."""
    ids = itertools.count()
    return GameService(store, FakeClock(1_800_000_000), id_factory=lambda: f"quiet{next(ids)}")


async def assert_log_replays(store: Store, game: Game, players: int, game_id: str, now: Any) -> None:
    """The stored log of ``game_id`` (quiet entries and undos included) replays to ``now``."""
    rows = await store.actions(game_id)
    row = await store.get_game(game_id)
    assert row is not None
    again = replay(game, players, row.options, row.seed, [r.action for r in rows])
    assert canonical(game.to_json(again)) == canonical(game.to_json(now))


async def start(service: GameService, spec: GameSpec, players: int, seed: int) -> str:
    """A game of ``players`` people with the seed ``seed``, started; its id."""
    game_id = (await service.create_lobby(PEOPLE[0], "p0", spec.id, seed=seed)).status.game_id
    for k in range(1, players):
        await service.join(game_id, PEOPLE[k], f"p{k}")
    await service.start(game_id, PEOPLE[0])
    return game_id


async def looks_to(service: GameService, game_id: str, seats: dict[int, int], others: list[int]
                   ) -> tuple[Any, ...]:
    """Everything the other seats and a spectator can read of the game: the counter, the public log (its
    move numbers included), the board after each of the last moves, and each seat's :class:`Seen`."""
    seq, log = await counters(service, game_id)
    boards = [canonical(await service.view_at(game_id, None, m)) for m in range(max(seq - 3, 0), seq + 1)]
    seen = [await seen_by(service, game_id, seats[s], s) for s in others]
    # a panel's custom ids name the game: the twin's differ in that alone
    seen = [replace(one, tokens=tuple(t.replace(f":{game_id}:", ":G:") for t in one.tokens)) for one in seen]
    return seq, log, boards, seen


@pytest.mark.parametrize("spec", QUIET, ids=spec_id)
@pytest.mark.asyncio
async def test_a_quiet_move_leaves_every_other_seat_as_it_was(spec: GameSpec, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        service = quiet_service(store)
        players = max(spec.min_players, min(spec.max_players, 3))
        game = spec.load()
        found = await quiet_position(service, spec, players)
        gid, seats, seat, move = found.game_id, found.seats, found.seat, found.move
        others = [s for s in seats if s != seat]
        before = await looks_to(service, gid, seats, others)
        public = before[0]
        old_panels = {s: (await service.turn(gid, seats[s])) for s in others}

        out = await service.submit(gid, seats[seat], move.to_json(), public)
        assert all(n.audience == (seats[seat],) for n in out.notices), out.notices  # its sender alone
        assert out.notices, "the sender is told what the quiet move did"
        assert len(out.outbox) == 1, "one outbox row, the sender's: no public line, no pinned status to redo"
        assert await looks_to(service, gid, seats, others) == before

        # the sender takes it back: as quiet as the move, the state as it was before it
        _, armed = await service.engine_state(gid)
        assert await service.can_undo(gid, seats[seat])
        undone = await service.undo(gid, seats[seat], public)
        assert all(n.audience == (seats[seat],) for n in undone.notices), undone.notices
        assert len(undone.outbox) == 1
        assert await looks_to(service, gid, seats, others) == before
        _, back = await service.engine_state(gid)
        assert canonical(game.to_json(back)) != canonical(game.to_json(armed))

        # again, and another seat's click from before it still counts
        await service.submit(gid, seats[seat], move.to_json(), public)
        clicker = next((s for s in others if old_panels[s].decision is not None), None)
        assert clicker is not None, "nobody else had a decision to click"
        decision = old_panels[clicker].decision
        assert decision is not None
        click = decision.choices[0].action.to_json()
        await service.submit(gid, seats[clicker], click, old_panels[clicker].seq)
        assert (await service.status(gid)).seq > public

        # a twin game, the same moves but no quiet one, looks the same to every other seat
        twin = await start(service, spec, players, found.seed)
        for person, played in [*found.played, (seats[clicker], click)]:
            await service.submit(twin, person, played, (await service.status(twin)).seq)
        assert await looks_to(service, twin, seats, others) == await looks_to(service, gid, seats, others)

        # the log, quiet entries and undo included, replays to the stored state
        _, now = await service.engine_state(gid)
        await assert_log_replays(store, game, players, gid, now)
    finally:
        await store.close()


@pytest.mark.parametrize("spec", QUIET, ids=spec_id)
@pytest.mark.asyncio
async def test_an_undo_past_another_seats_quiet_move_keeps_it(spec: GameSpec, tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "annals.sqlite3")
    try:
        service = quiet_service(store)
        players = max(spec.min_players, min(spec.max_players, 3))
        game = spec.load()
        for seed in range(TRIES):
            gid = await start(service, spec, players, seed)
            status = await service.status(gid)
            seats = {s.seat: s.user_id for s in status.seats if s.seat is not None and s.user_id is not None}
            pick = random.Random(seed)
            found = None
            for _ in range(MOVES):
                status = await service.status(gid)
                if status.status != "active":
                    break
                _, state = await service.engine_state(gid)
                mover = pick.choice(sorted(game.actors(state)))
                move = pick.choice(list(game.legal_actions(state, mover)))
                await service.submit(gid, seats[mover], move.to_json(), status.seq)
                if await service.can_undo(gid, seats[mover]):
                    _, after = await service.engine_state(gid)
                    quiet = next((m for s in seats if s != mover
                                  for m in game.quiet_examples(after, s)), None)
                    if quiet is not None:
                        found = mover, state, quiet
                        break
            if found is not None:
                break
        assert found is not None, f"{spec.title}: no move to take back came with a quiet move beside it"
        mover, before, quiet = found
        seq = (await service.status(gid)).seq
        await service.submit(gid, seats[quiet.player], quiet.to_json(), seq)
        assert await service.can_undo(gid, seats[mover]), "another seat's quiet move took the undo away"
        await service.undo(gid, seats[mover], seq)

        # the mover's move is gone, the quiet move stands on the state before it, and its sender may
        # still take it back
        _, now = await service.engine_state(gid)
        assert canonical(game.to_json(now)) == canonical(game.to_json(game.apply(before, quiet).state))
        assert await service.can_undo(gid, seats[quiet.player])
        await service.undo(gid, seats[quiet.player], (await service.status(gid)).seq)
        _, now = await service.engine_state(gid)
        assert canonical(game.to_json(now)) == canonical(game.to_json(before))

        # and a replay of the log (LogReplay) reaches the same state, and so does the service reloaded
        await assert_log_replays(store, game, players, gid, now)
        assert await service.verify_game(gid) == []
    finally:
        await store.close()
