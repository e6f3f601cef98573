"""DMs of several games for the same people, the bot killed at random while delivering them (issue 24,
point 4): every notice is delivered exactly once, under one nonce.

The real bot runs in a subprocess (``tests/support/crash_driver.py --deliver``) against the local fake Discord
served here, and plays toy games among three people, every pair at once, so each person's DM rows
mix several games. It prints the rows and the nonce of each DM just before making it, and takes a
little while between Discord's answer and marking the rows delivered (a slow disk), so that kills
land there too. The test SIGKILLs it at a random moment and starts another, again and again; a last
process delivers what is left. Then, from the fake's record of the messages it really created
(a nonce it has seen returns the first message, as Discord does with ``enforce_nonce``):

* every nonce went out with one set of rows, whichever process sent it;
* no row's news was made into messages under two nonces (that is a duplicate DM);
* every DM row is delivered, none given up.

Before batches were stored, a retry after a crash re-formed the batch from the rows whose attempt
counts matched, so another game's row in between split it and the rest went out again under new
nonces ("15 and 77 duplicate DMs over 30 kills on SQLite, 10 on PostgreSQL").
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.storage import open_store
from tests.store.test_postgres_processes import Driver, postgres_url, spawn
from tests.support.fake_discord import FakeDiscord, Request

__all__ = ["postgres_url"]  # the fixture this module shares

FAST_KILLS = 3  # the fast suite's few kills
SWEEP_KILLS = 30  # the slow sweep's, per database
PEOPLE = {201: "ann", 202: "ben", 203: "cat"}  # tests/support/crash_driver.py's DELIVER_PEOPLE


@dataclass
class Tally:
    """What the sweep saw: DMs made, batches sent more than once, rows told twice."""

    made: int  # DM messages the fake really created
    resent: int  # nonces sent by more than one try (the crash cases)
    twice: list[int]  # rows whose news went out under two nonces
    split: dict[str, list[list[int]]]  # nonces sent with different rows at different tries


async def kill_sweep(fake: FakeDiscord, db: str, kills: int, seed: int) -> list[str]:
    """Start the delivering bot ``kills`` times, SIGKILLing each at a random moment, then let a last
    one deliver what is left; every line they printed."""
    rng = random.Random(seed)
    lines: list[str] = []
    for k in range(kills):
        driver = await spawn("--deliver", db, fake.base_url, fake.gateway_url, str(seed * 1000 + k))
        try:
            await driver.wait_for("ready")
            await asyncio.sleep(rng.uniform(0.2, 1.5))  # where the kill lands (never an assertion)
        finally:
            await driver.kill()
        lines += driver.lines
    last: Driver = await spawn("--deliver", db, fake.base_url, fake.gateway_url, "0", "drain")
    try:
        await last.wait_for("drained")
    finally:
        await last.kill()
    return lines + last.lines


def tally(fake: FakeDiscord, lines: Sequence[str]) -> Tally:
    """Match the DMs the fake created with the rows each nonce was sent with."""
    sent: dict[str, list[frozenset[int]]] = {}
    for line in lines:
        if line.startswith("dm "):
            _, _, nonce, ids = line.split()
            sent.setdefault(nonce, []).append(frozenset(int(i) for i in ids.split(",")))
    dm_paths = {f"/channels/{c}/messages" for c in fake.dm_channels}
    made: list[Request] = [r for r in fake.created if r.path in dm_paths]
    made_nonces = {str(r.payload["nonce"]).rsplit("-", 1)[0] for r in made if isinstance(r.payload, dict)}
    unexplained = made_nonces - set(sent)
    assert not unexplained, f"DMs under nonces no batch was sent with: {sorted(unexplained)}"
    told: dict[int, set[str]] = {}
    for nonce in made_nonces:
        for rows in sent[nonce]:
            for row in rows:
                told.setdefault(row, set()).add(nonce)
    return Tally(
        made=len(made),
        resent=sum(len(tries) > 1 for tries in sent.values()),
        twice=sorted(row for row, nonces in told.items() if len(nonces) > 1),
        split={n: [sorted(t) for t in tries] for n, tries in sent.items() if len(set(tries)) > 1})


async def dm_rows_left(db: str) -> list[str]:
    """The DM rows not delivered (or given up), described."""
    store = await open_store(db)
    try:
        rows = [r for r in await store.outbox_rows() if r.kind == "dm"]
    finally:
        await store.close()
    assert rows, "no DM row was ever written: nothing was tested"
    return [f"row {r.id} to {r.target}: {r.last_error}" for r in rows
            if r.delivered_at is None or r.gave_up_at is not None]


async def exactly_once(db: str, kills: int, seed: int) -> Tally:
    """The sweep on ``db``, checked (see the module docstring)."""
    async with FakeDiscord(dict(PEOPLE), heartbeat_interval=250) as fake:
        lines = await kill_sweep(fake, db, kills, seed)
        result = tally(fake, lines)
    assert result.made > kills, f"only {result.made} DMs were made: the sweep tested little"
    assert not result.split, f"nonces sent with different rows: {result.split}"
    assert not result.twice, f"rows told twice under different nonces: {result.twice}"
    assert not await dm_rows_left(db)
    return result


@pytest.mark.asyncio
async def test_a_few_kills_mixing_dms_of_several_games_tell_each_notice_once_sqlite(tmp_path: Path) -> None:
    await exactly_once(str(tmp_path / "annals.sqlite3"), FAST_KILLS, seed=1)


@pytest.mark.asyncio
async def test_a_few_kills_mixing_dms_of_several_games_tell_each_notice_once_postgres(
        postgres_url: str) -> None:
    await exactly_once(postgres_url, FAST_KILLS, seed=2)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_30_kills_mixing_dms_of_several_games_tell_each_notice_once_sqlite(tmp_path: Path) -> None:
    result = await exactly_once(str(tmp_path / "annals.sqlite3"), SWEEP_KILLS, seed=3)
    assert result.resent, "no batch was cut by a kill and sent again: the crash case was not reached"
    print(f"sqlite: {result.made} DMs made, {result.resent} batches resent after a kill, 0 told twice")


@pytest.mark.slow
@pytest.mark.asyncio
async def test_30_kills_mixing_dms_of_several_games_tell_each_notice_once_postgres(postgres_url: str) -> None:
    result = await exactly_once(postgres_url, SWEEP_KILLS, seed=4)
    assert result.resent, "no batch was cut by a kill and sent again: the crash case was not reached"
    print(f"postgres: {result.made} DMs made, {result.resent} batches resent after a kill, 0 told twice")
