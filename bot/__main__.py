"""``python -m bot``: run Annals.

Without ``DISCORD_TOKEN`` (environment or ``.env``) this opens the local console
on the embedded SQLite database (``ANNALS_DB``, default ``annals.sqlite3``). With
a token it runs the Discord adapter, ``bot.discord``. Slash commands are uploaded
only by ``python -m bot sync`` (to one server with ``--guild ID``, at once; globally
otherwise), never on start.

Usage::

    python -m bot [--console] [--demo] [--env-file PATH]   # the bot (or the console)
    python -m bot --shards 0-3 --shard-count 8             # one of several processes (PostgreSQL)
    python -m bot backup [--env-file PATH]                  # one online backup now
    python -m bot sync [--guild ID] [--env-file PATH]       # upload the slash commands to Discord
    python -m bot check [--env-file PATH]                   # integrity check, every game replayed
    python -m bot copy-db SOURCE TARGET                     # e.g. annals.sqlite3 postgresql://...

Only one bot or console may use a database file at a time (a second one is refused
in one line; see :func:`bot.store.hold_writer_lock`). At start the file gets a quick
integrity check; a damaged or unreadable file is refused in one line that says how
to restore it from ``backups/``, never with a traceback.

Before either front starts, every registered ruleset is loaded in a worker thread
(:func:`load_rulesets`: its module imported and its data files parsed), so no
player's first move of a game pays for that on the event loop.

Either way the process stops gracefully on SIGTERM or SIGINT: the command or
deadline being handled finishes its write, the scheduler stops, the database
closes, and the exit status is 0. The Discord front gives undelivered notices a
moment to go out, then stops its delivery workers: what they had not sent stays
in the outbox and goes out at the next start (see :mod:`bot.discord.transport`),
so a pending 429 never holds the shutdown up.

Contract for the Discord adapter: ``bot/discord/__init__.py`` provides
``def serve(config, service, scheduler, stop) -> Awaitable[None]``: it builds the
bot at once (listening to the service before the scheduler fires what fell due
while the bot was down) and returns what runs it until the ``stop`` event is set
(this module owns the store, service, scheduler, backups and signals).

Both fronts share one :class:`~bot.leagues.service.LeagueService`, opened after
the game service and before the scheduler starts (so a league game that ends by
a deadline fired at start-up is recorded), and closed after the scheduler stops.
The Discord adapter finds it with :func:`bot.leagues.service.league_service_of`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import logging
import signal
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO, cast

from bot.backup import BackupError, BackupManager
from bot.config import Config, ConfigError, check_shards, load_config, parse_shards
from bot.console import Console
from bot.leagues.service import LeagueService
from bot.lines import CurrentStdout, PromptLines, terminal_lines
from bot.scheduler import SWEEP_SECONDS, Scheduler
from bot.service import GameService, ServiceError
from bot.service.audit import Audit
from bot.storage import GameStore, is_postgres, open_store, sqlite_path
from bot.store import StoreError
from engine.registry import specs
from engine.words import plural

log = logging.getLogger("bot")

NO_TOKEN = (
    "No DISCORD_TOKEN is set, so Annals runs here in the local console on {db}.\n"
    "To connect to Discord, set DISCORD_TOKEN in the environment or in a .env file "
    "(see .env.example) and start again."
)


class OffsetClock:
    """Real time plus a jump that ``/time`` can grow (the console's ``--demo`` mode).

    Time keeps passing really, so scheduled jobs stay in step; ``advance`` only adds.
    """

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        """The real time plus the jumps made so far."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> float:
        """Jump forward by ``seconds``."""
        if seconds < 0:
            raise ValueError("a clock never goes backwards")
        self.offset += seconds
        return self.now()


def load_rulesets() -> list[str]:
    """Import every registered game, its AI players and its pictures, and parse its data, by a throwaway
    setup at its smallest table with its default options and one move of each AI player (the data
    loaders and the AI keep what they parsed). Run in a worker thread at start-up, so no first move
    imports or parses on the event loop. Returns one line per game that failed (it is then loaded
    again on first use, where the failure is reported to whoever asked)."""
    problems: list[str] = []
    for game_spec in specs():
        players = game_spec.min_players
        try:
            game = game_spec.load()
            state = game.setup(players, game_spec.checked_options(players, {}), 0)
            for name in game_spec.policy_names:
                game_spec.make_policy(name, 0).choose(state, min(game.actors(state)))
            game_spec.notice_pictures()
            game_spec.warm_pictures()  # a large map's bases: not built while the first reader waits
        except Exception as exc:  # one broken ruleset must not keep the others (or the bot) down
            problems.append(f"{game_spec.id}: {type(exc).__name__}: {exc}")
    return problems


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Run the Annals bot (or its console).")
    parser.add_argument("command", nargs="?", choices=("run", "backup", "sync", "check", "copy-db"),
                        default="run",
                        help="run the bot (default), make one backup now, sync the slash commands, "
                        "check the database (integrity, every game replayed against its snapshot), or "
                        "copy-db SOURCE TARGET (every row into an empty database, SQLite or PostgreSQL)")
    parser.add_argument("databases", nargs="*", metavar="DATABASE",
                        help="with copy-db: the SOURCE and the TARGET (a file or a postgresql:// URL)")
    parser.add_argument("--guild", type=int, default=None,
                        help="with sync: sync to this server only (immediate) instead of globally")
    parser.add_argument("--console", action="store_true", help="open the local console even with a token")
    parser.add_argument("--demo", action="store_true",
                        help="console with a clock that /time can move forward (deadlines, reminders)")
    parser.add_argument("--env-file", default=".env", help="settings file (default .env)")
    parser.add_argument("--restore", default=None, metavar="GAME",
                        help="with check: put a game set aside as damaged back in play once it loads again "
                        "(stop the bot first)")
    parser.add_argument("--shards", default=None, metavar="IDS",
                        help="run these gateway shards only, e.g. 0-3 or 0,2,5 (with --shard-count; "
                        "other processes run the others, on the same PostgreSQL ANNALS_DB)")
    parser.add_argument("--shard-count", type=int, default=None, metavar="N",
                        help="how many gateway shards the bot has in all")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load_config(env_file=args.env_file)
        if args.shards is not None or args.shard_count is not None:  # the command line wins
            try:
                ids = parse_shards(args.shards) if args.shards is not None else config.shard_ids
            except ValueError as exc:
                raise ConfigError(f"--shards: {exc}") from exc
            count = args.shard_count if args.shard_count is not None else config.shard_count
            check_shards(ids, count)
            config = replace(config, shard_ids=ids, shard_count=count)
    except ConfigError as exc:
        print(f"Bad setting: {exc}", file=sys.stderr)
        return 2
    try:
        return _main(args, config)
    except sqlite3.DatabaseError as exc:  # the file went bad under us: one line, never a traceback
        print(_unreadable(config, exc), file=sys.stderr)
        return 1


def _unreadable(config: Config, exc: BaseException) -> str:
    db = config.db_path
    return (f"The database {db} is damaged or unreadable (SQLite says: {exc}). Stop every Annals process, "
            f"copy the newest file from {config.backup_dir} over {db} (delete {db}-wal and {db}-shm if "
            "present), then start again.")


def _main(args: argparse.Namespace, config: Config) -> int:
    if args.command == "copy-db" or args.databases:
        if args.command != "copy-db" or len(args.databases) != 2:
            print("Usage: python -m bot copy-db SOURCE TARGET (each a SQLite file or a postgresql:// URL)",
                  file=sys.stderr)
            return 2
        from bot.copydb import run as copy_db

        return copy_db(*args.databases)
    if args.command == "backup":
        return asyncio.run(_backup_once(config))
    if args.command == "check":
        return asyncio.run(_restore(config, args.restore) if args.restore else _check(config))
    if args.command == "sync":
        return asyncio.run(_sync(config, args.guild))
    if config.discord_token and not (args.console or args.demo):
        from bot.discord import serve  # imported only here: the console never needs discord.py loaded

        return asyncio.run(_run(config, lambda svc, sched, stop: serve(config, svc, sched, stop)))
    print(NO_TOKEN.format(db=config.db_path), flush=True)
    clock = OffsetClock() if args.demo else None

    def console(service: GameService, scheduler: Scheduler, stop: asyncio.Event) -> Awaitable[Any]:
        ui = Console(service, cast(TextIO, CurrentStdout()), scheduler=scheduler, clock=clock,
                     out_dir=config.out_dir, backups=_backups(config))
        source = terminal_lines()
        if isinstance(source, PromptLines):
            return _printing_above(ui.run(source, stop))
        return ui.run(source, stop)

    return asyncio.run(_run(config, console, clock=clock))


def _loaded(warming: asyncio.Future[list[str]]) -> None:
    """Log what :func:`load_rulesets` could not load (the game then loads on first use, saying why)."""
    if warming.cancelled():
        return
    error = warming.exception()
    for problem in [f"{type(error).__name__}: {error}"] if error is not None else warming.result():
        log.error("could not load the ruleset %s", problem)


async def _printing_above(run: Awaitable[int]) -> int:
    """Run the console with output printed above the prompt."""
    with PromptLines.printing():
        return await run


async def _run(config: Config, front: Callable[[GameService, Scheduler, asyncio.Event], Awaitable[Any]],
               *, clock: OffsetClock | None = None) -> int:
    """Open everything, run ``front`` until it ends or a signal arrives, then close in order."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(sig, stop.set)
    store = await _opened(config, exclusive=True)  # one bot or console per SQLite file
    if store is None:
        return 1
    try:
        damage = await store.integrity_problems(quick=True)
    except sqlite3.DatabaseError as exc:  # too damaged to check at all
        damage = [str(exc)]
    if damage:
        await store.close()
        print(_unreadable(config, Exception(f"{len(damage)} problems, first: {damage[0]}")), file=sys.stderr)
        return 1
    # every game, its AI and pictures loaded in a worker thread while the front already answers (a game
    # asked for first loads itself, off the loop too)
    warming = asyncio.ensure_future(asyncio.to_thread(load_rulesets))
    warming.add_done_callback(_loaded)
    service = GameService(store, clock, vacation_days=config.vacation_days)
    await service.follow_others()  # a shared database: hear the games other processes change
    try:
        leagues = await LeagueService.open(service)  # follows league games from here on
    except (StoreError, OSError) as exc:
        await service.stop_following()
        await store.close()
        print(f"Cannot open the league tables of {config.db_path}: {exc}", file=sys.stderr)
        return 1
    scheduler = Scheduler(service, arm_within=3 * SWEEP_SECONDS)  # later deadlines are armed as they near
    work = front(service, scheduler, stop)  # before start-up, so it hears deadlines fired at start-up
    try:
        await scheduler.start(background=True)  # games come back while the front answers
        backups = _backups(config)
        if config.backup_interval > 0 and not is_postgres(config.db_path):  # a server backs up itself
            scheduler.every(config.backup_interval, backups.backup_now, "backup")
        front_task = asyncio.ensure_future(work)
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait({front_task, stopper}, return_when=asyncio.FIRST_COMPLETED)
        stop.set()  # the front ended by itself (EOF, /quit): say so to whoever waits
        if not front_task.done():
            await front_task  # it sees stop after the command in progress and returns
        stopper.cancel()
        front_task.result()
    finally:
        if asyncio.iscoroutine(work) and inspect.getcoroutinestate(work) == inspect.CORO_CREATED:
            work.close()  # start-up failed before the front ran
        await scheduler.shutdown()
        await service.stop_following()
        await leagues.close()
        await store.close()
    print("Annals stopped.", flush=True)
    return 0


async def _sync(config: Config, guild_id: int | None) -> int:
    """Upload the slash commands (``python -m bot sync``)."""
    if not config.discord_token:
        print("Set DISCORD_TOKEN (environment or .env) to sync the slash commands.", file=sys.stderr)
        return 2
    from bot.discord import sync_commands

    store = await _opened(config)
    if store is None:
        return 1
    try:
        names = await sync_commands(config.discord_token, GameService(store), guild_id)
    except Exception as exc:  # LoginFailure, HTTPException: say it plainly
        print(f"Sync failed: {exc}", file=sys.stderr)
        return 1
    finally:
        await store.close()
    where = f"server {guild_id}" if guild_id is not None else "all servers (may take up to an hour)"
    print(f"Synced {', '.join('/' + n for n in names) or 'no commands'} to {where}.")
    return 0


async def _check(config: Config) -> int:
    """``python -m bot check``: SQLite's integrity check, then every game replayed against its snapshot.

    Prints one line per problem and exits 1 when there is any. It opens the database read-only and
    migrates nothing (a file in a read-only folder is checked where it lies), so it may run beside
    the bot. An older schema is said so and not counted as damage: the file itself is checked, its
    games (which this code reads at the newest schema only) once the bot has brought it up to date.
    """
    store = await _opened(config, read_only=True)
    if store is None:
        return 1
    try:
        version, latest = await store.user_version(), store.latest_version()
        lines = [f"database: {p}" for p in await store.integrity_problems()]
        if version > latest:
            lines.append(f"database: schema version {version} is newer than this code knows ({latest}); "
                         "check it with the code that wrote it.")
        if version < latest:  # not damage: the next start migrates it; its games are checked on a copy
            print(f"{config.db_path}: schema version {version}; the bot brings it up to date at its next "
                  "start.")
            audit = await _audit_older(config.db_path)
        else:
            audit = await GameService(store, cache_size=0).audit()
        lines += audit.problems
    finally:
        await store.close()
    for line in audit.notes:  # games of older rules: no damage, they play on from their snapshots
        print(line)
    for line in lines:
        print(line)
    if lines:
        print(f"{len(lines)} problem(s) in {config.db_path}. To go back to a healthy copy, stop Annals and "
              f"restore the newest file from {config.backup_dir}.", file=sys.stderr)
        return 1
    older = f", {len(audit.notes)} of them started under older rules" if audit.notes else ""
    if version < latest and not audit.checked:
        print(f"{config.db_path}: no problems in the file (its games are checked once the bot brought it up "
              "to date).")
        return 0
    checked = plural(audit.checked, "game")
    print(f"{config.db_path}: no problems ({checked} checked against their logs{older}).")
    return 0


async def _audit_older(db: str) -> Audit:
    """The games of a database at an older schema, checked on a copy brought up to date in a temporary
    folder (this code reads games at the newest schema only; the file itself is never written). A
    PostgreSQL database is not copied: its games are checked once the bot has migrated it."""
    if is_postgres(db):
        return Audit()
    with tempfile.TemporaryDirectory(prefix="annals-check-") as folder:
        copy = str(Path(folder) / "copy.sqlite3")
        await asyncio.to_thread(_copy_read_only, sqlite_path(db), copy)
        store = await open_store(copy)  # migrated, as the bot's next start will
        try:
            audit = await GameService(store, cache_size=0).audit()
        finally:
            await store.close()
    were = "was" if audit.checked == 1 else "were"
    print(f"  its {plural(audit.checked, 'game')} {were} checked on a copy brought up to date.")
    return audit


def _copy_read_only(source: str, target: str) -> None:
    """A consistent copy of a SQLite file, read through a read-only connection (SQLite's backup)."""
    with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src, \
            closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


async def _restore(config: Config, game_id: str) -> int:
    """``python -m bot check --restore GAME``: put a game set aside as damaged back in play, once it
    loads again (after a repair, or a fix of the code): its paused clocks run on, each moved later by
    the time it spent set aside. Opens the database as its one writer: stop the bot first."""
    store = await _opened(config, exclusive=True)
    if store is None:
        return 1
    try:
        if game_id not in await store.damaged_games():
            print(f"Game {game_id} is not set aside as damaged: nothing to restore.", file=sys.stderr)
            return 2
        service = GameService(store, cache_size=0)
        try:
            await service.check_loads(game_id)
        except ServiceError as exc:
            print(f"Game {game_id} still cannot be played: {exc.message}", file=sys.stderr)
            return 1
        await store.clear_damage(game_id, int(time.time()))
    finally:
        await store.close()
    print(f"Game {game_id} is back in play: its clocks run on from where they paused.")
    return 0


async def _opened(config: Config, **how: bool) -> GameStore | None:
    """The database opened as ``how`` says (:func:`bot.storage.open_store`), or None once the reason it
    cannot be is printed in one line."""
    try:
        return await open_store(config.db_path, **how)
    except (StoreError, OSError) as exc:
        print(f"Cannot open the database: {exc}", file=sys.stderr)
        return None


def _backups(config: Config) -> BackupManager:
    return BackupManager(config.db_path, config.backup_dir, keep=config.backup_keep)


async def _backup_once(config: Config) -> int:
    if is_postgres(config.db_path):
        print("ANNALS_DB is a PostgreSQL database: back it up with the server's own tools (pg_dump).",
              file=sys.stderr)
        return 2
    try:
        path = await _backups(config).backup_now()
    except BackupError as exc:
        print(f"Backup failed: {exc}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
