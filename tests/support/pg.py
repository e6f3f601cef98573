"""A PostgreSQL server for the tests: ``ANNALS_TEST_PG`` if set, else a throwaway cluster.

The throwaway cluster is made with the installed binaries (``initdb`` + ``pg_ctl``) in a temporary
folder, listening only on a Unix socket there, with ``trust`` authentication; as root it runs as the
``postgres`` user (the server refuses root). Each test gets a fresh database, copied from a template
that is migrated once, so a test never sees another's rows.

Where no server can be had, :func:`server` returns None and says why in :data:`WHY_NOT`, and the
tests that need one are skipped with that message (``.ci/run`` makes them required).
"""

from __future__ import annotations

import asyncio
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]  # ships no type information

ENV = "ANNALS_TEST_PG"
TEMPLATE = f"annals_template_{os.getpid()}"  # one per process: xdist workers may share a server


@dataclass
class Server:
    """A reachable server: a URL to its maintenance database, and what to stop at the end."""

    url: str
    data_dir: Path | None = None
    owner: str | None = None

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    def stop(self) -> None:
        if self.data_dir is None:
            return
        _run(self.owner, [_binary("pg_ctl"), "-D", str(self.data_dir), "-m", "immediate", "stop"])
        shutil.rmtree(self.data_dir.parent, ignore_errors=True)


WHY_NOT: list[str] = []
_server: Server | None = None
_counter = itertools.count()
_created: list[str] = []  # databases made on a server the tests were given, dropped at the end


def _binary(name: str) -> str:
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                                                     reverse=True)), None)
    if found is None:
        raise FileNotFoundError(f"{name} not found (install the postgresql package)")
    return found


def _run(owner: str | None, argv: list[str]) -> None:
    cmd = ["runuser", "-u", owner, "--", *argv] if owner else argv
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)


def start_cluster(*, durable: bool = False) -> Server:
    """initdb + pg_ctl start in a fresh temporary folder; the URL uses the folder's Unix socket.

    The tests' cluster skips fsync (it is thrown away); ``durable`` keeps it, for benchmarks."""
    owner = "postgres" if os.geteuid() == 0 else None
    base = Path(tempfile.mkdtemp(prefix="annals-pg-"))
    data, sock = base / "data", base / "sock"
    sock.mkdir()
    if owner:  # the server runs as postgres, which must own its folders
        entry = pwd.getpwnam(owner)
        for path in (base, sock):
            os.chown(path, entry.pw_uid, entry.pw_gid)
    _run(owner, [_binary("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
                 "--no-sync"])
    options = f"-c listen_addresses='' -c unix_socket_directories={sock} -c max_connections=200"
    if not durable:
        options += " -c fsync=off"
    _run(owner, [_binary("pg_ctl"), "-D", str(data), "-o", options, "-w", "-l", str(base / "log"), "start"])
    return Server(f"postgresql://postgres@/postgres?host={sock}", data, owner)


def server() -> Server | None:
    """The session's server (started on first use), or None with the reason in :data:`WHY_NOT`."""
    global _server
    if _server is not None or WHY_NOT:
        return _server
    url = os.environ.get(ENV)
    try:
        _server = Server(url) if url else start_cluster()
        asyncio.run(_prepare_template(_server))
    except (OSError, subprocess.SubprocessError, asyncpg.PostgresError) as exc:
        failed = exc if isinstance(exc, subprocess.CalledProcessError) and exc.stderr else None
        detail = failed.stderr.decode(errors="replace")[-300:] if failed else str(exc)
        WHY_NOT.append(f"no PostgreSQL server for the tests ({detail}); set {ENV}=postgresql://... "
                       "or install the postgresql package")
        if _server is not None:
            _server.stop()
        _server = None
    return _server


async def _prepare_template(srv: Server) -> None:
    """A database migrated once, that each test's fresh database copies (CREATE DATABASE ... TEMPLATE)."""
    from bot.store import Store

    conn = await asyncpg.connect(srv.url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    store = await Store.open(srv.database_url(TEMPLATE))
    await store.close()


def fresh_database(srv: Server, *, migrated: bool = True) -> str:
    """A new, empty database (with the schema when ``migrated``); returns its URL."""
    name = f"annals_t{os.getpid()}_{next(_counter)}"

    async def create() -> None:
        conn = await asyncpg.connect(srv.url)
        try:
            template = TEMPLATE if migrated else "template0"
            await conn.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        finally:
            await conn.close()

    asyncio.run(create())
    _created.append(name)
    return srv.database_url(name)


def fresh_database_or_skip() -> str:
    """A fresh migrated database of the session's server; the calling test is skipped without one."""
    import pytest  # here only: the benchmarks use this module without pytest

    srv = server()
    if srv is None:
        pytest.skip(WHY_NOT[0])
    return fresh_database(srv)


def stop() -> None:
    """Stop the throwaway cluster, or drop what the tests made on a given server (end of the session)."""
    global _server
    if _server is not None and _server.data_dir is None:
        asyncio.run(_drop(_server, [*_created, TEMPLATE]))
    if _server is not None:
        _server.stop()
        _server = None


async def _drop(srv: Server, names: list[str]) -> None:
    conn = await asyncpg.connect(srv.url)
    try:
        for name in names:
            await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await conn.close()
