"""Checking stored games against their own logs (``python -m bot check``): replay from the seed is a
check here, never something a player waits on.

A game started under older rules (its recorded rules version is not today's, or it was started before
versions were recorded) may no longer replay: that is no damage, it plays on from its snapshot
(docs/ARCHITECTURE.md, "Upgrades"). Damage is what no rules change explains: a gap in the log, an
entry that is not a move, a snapshot ahead of the log, or a game of today's rules that replays
differently.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

from bot.models import ActionRow, GameStatusName, Snapshot
from bot.service.base import ServiceBase, log
from bot.service.errors import ServiceError
from bot.service.offload import cpu, off_loop
from bot.service.records import read_again, read_state, recover_records, spec_or_error
from bot.store import StoreError
from engine.core import JOIN, UNDO, Game, IllegalAction, LogReplay, players_at_start

UNKNOWN_VERSION = "unknown"


@dataclass
class GameCheck:
    """What checking one game found: ``problems`` (damage), and ``older`` (the rules version a game
    started under that replays differently today, None when it replays or the difference is damage)."""

    problems: list[str] = field(default_factory=list)
    older: str | None = None


@dataclass
class Audit:
    """Every game checked: how many, the damage found, and the lines about games of older rules."""

    checked: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def older_rules_line(game_id: str, version: str) -> str:
    return f"game {game_id}: started under older rules (version {version}), plays on from its snapshot"


def unreadable_entries(game: Game, rows: Sequence[ActionRow]) -> list[str]:
    """Each log entry that is not a move of ``game`` (nor an undo or a join entry), in words."""
    problems = []
    for row in rows:
        kind = row.action.get("kind")
        if not row.action:
            problems.append(f"log entry {row.seq} cannot be read (not a JSON object)")
        elif kind not in (UNDO, JOIN):
            try:
                game.codec.decode(row.action)
            except IllegalAction as exc:
                problems.append(f"log entry {row.seq} is not a move of this game ({exc.message})")
    return problems


@off_loop
def replay_problems(game: Game, players: int, options: Mapping[str, Any], seed: int,
                    rows: Sequence[ActionRow], marks: Mapping[int, Snapshot]) -> list[str]:
    """Replay the log from the seed under today's rules and compare it with every stored state (runs in
    a worker thread: the engine is pure)."""
    problems = []
    state = game.setup(players_at_start(players, [row.action for row in rows]), options, seed)
    start = marks.get(0)
    if start is not None and game.dumps(state) != read_again(game, start.state_json):
        problems.append("the set-up state differs from the stored one")
    run = LogReplay(game, state)  # undo and join entries too
    try:
        for row in rows:
            run.apply(row.action, mark=row.seq)
            mark = marks.get(row.seq)
            if mark is not None and game.dumps(run.state) != read_again(game, mark.state_json):
                problems.append(f"replayed state at seq {row.seq} differs from the stored one")
    except IllegalAction as exc:
        problems.append(f"the log does not replay at seq {row.seq} ({exc.message})")
    return problems


class AuditOps(ServiceBase):
    """The checking half of :class:`bot.service.GameService`; reads only, so it may run beside the bot."""

    async def audit(self) -> Audit:
        """Check every game against its own log (``python -m bot check``); writes nothing."""
        ids = await self.store.game_ids(statuses=get_args(GameStatusName))
        report = Audit(len(ids))
        report.problems += [f"game {gid}: set aside as damaged ({why})"
                            for gid, why in (await self.store.damaged_games()).items()]
        for gid in ids:
            try:
                found = await self.check_game(gid)
            except StoreError:
                raise
            except Exception as exc:  # a damaged record: say which and what, then go on
                detail = exc.message if isinstance(exc, ServiceError) else f"{type(exc).__name__}: {exc}"
                report.problems.append(f"game {gid}: cannot be checked ({detail})")
                continue
            report.problems += [f"game {gid}: {problem}" for problem in found.problems]
            if found.older is not None:
                report.notes.append(older_rules_line(gid, found.older))
        return report

    async def check_loads(self, game_id: str) -> None:
        """Load the game from what is stored, as a move would (``python -m bot check --restore``); a
        game that cannot load raises the refusal a player would get, without setting it aside again."""
        bundle = await self.store.load_bundle(game_id)
        if bundle is None:
            raise ServiceError("no_such_game", f"There is no game {game_id!r}.", game_id=game_id)
        try:
            await cpu(self._parse, bundle)
        except ServiceError:
            raise
        except Exception as exc:  # what a damaged record makes the parsers or the engine raise
            raise ServiceError("damaged", f"{type(exc).__name__}: {exc}") from exc

    async def verify_game(self, game_id: str) -> list[str]:
        """The damage :meth:`check_game` finds (empty when the game is sound, or only older)."""
        return (await self.check_game(game_id)).problems

    async def check_game(self, game_id: str) -> GameCheck:
        """Check one game: its log is contiguous and every entry a move; its snapshot not ahead of the
        log; a person who must act has a clock; and its log, replayed from the seed, reaches every
        stored state. A game whose rules version is not today's and replays differently is older,
        not damaged."""
        found = GameCheck()
        row = await self.store.get_game(game_id)
        if row is None:
            found.problems.append(f"no game {game_id}")
            return found
        if row.status == "lobby":
            return found
        spec = spec_or_error(row.ruleset)
        game = spec.load()
        bundle = await self.store.load_bundle(game_id)
        version = bundle.rules_version if bundle is not None else None
        seats = await self.store.get_seats(game_id)
        ordered = [s for s in seats if s.seat_order is not None]
        count, low, high = await self.store.log_bounds(game_id)
        if count and (low != 1 or high != count):
            found.problems.append(f"log not contiguous: {count} actions from {low} to {high}")
        if high != row.seq:
            found.problems.append(f"games.seq is {row.seq} but the log ends at {high}")
        snapshot = await self.store.snapshot(game_id)
        if snapshot is None:
            found.problems.append("no snapshot")
        elif snapshot.seq > high:
            found.problems.append(f"snapshot at {snapshot.seq} is ahead of the log ({high})")
        rows = await self.store.records(game_id)
        unreadable = unreadable_entries(game, rows)
        found.problems += unreadable
        if not unreadable:
            marks = {c.seq: c for c in await self.store.checkpoints(game_id)}
            if snapshot is not None:
                marks[snapshot.seq] = snapshot
            differs = await cpu(replay_problems, game, len(ordered), row.options, row.seed,
                                               rows, marks)
            if differs and version != spec.rules_version():
                found.older = version or UNKNOWN_VERSION
            else:
                found.problems += differs
        if row.status == "active" and snapshot is not None and not found.problems:
            state = await cpu(read_state, game, snapshot.state_json)
            have = {d.player for d in await self.store.game_deadlines(game_id) if d.kind == "turn"}
            for player in game.actors(state):
                seat = next((s for s in ordered if s.seat_order == player), None)
                if seat is not None and seat.is_human and player not in have:
                    found.problems.append(f"player {player} must act but has no deadline")
        return found

    async def recover_records(self, stop: Callable[[], bool] = lambda: False) -> int:
        """Fill in the events of log entries written before records were kept (once, after an upgrade;
        each game replayed in a worker thread, trusted up to its newest stored state it still reaches).
        Returns the number of games looked at. The scheduler runs it in the background at start-up,
        asking ``stop`` between games (a shutdown does not wait for the rest: it goes on next time)."""
        done = 0
        for game_id in await self.store.unrecorded_games():
            if stop():
                break
            try:
                row = await self.store.get_game(game_id)
                if row is None:
                    continue
                game = spec_or_error(row.ruleset).load()
                seats = await self.store.get_seats(game_id)
                rows = await self.store.records(game_id)
                marks = {c.seq: c.state_json for c in await self.store.checkpoints(game_id)}
                snapshot = await self.store.snapshot(game_id)
                if snapshot is not None:
                    marks[snapshot.seq] = snapshot.state_json
                players = sum(1 for s in seats if s.seat_order is not None)
                found = await cpu(recover_records, game, players, row.options, row.seed, rows,
                                                marks)
                await self.store.set_records(game_id, found.events, found.voided)
                done += 1
            except StoreError as exc:
                log.warning("could not recover the records of game %s now: %s", game_id, exc)
            except Exception:
                log.exception("the records of game %s could not be recovered", game_id)
        return done
