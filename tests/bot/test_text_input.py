"""Text people type is checked once where it comes in (issue 24, point 9).

Before, a lone surrogate ("\\ud800") in a game id or a console name reached SQLite and came back as
a raw ``UnicodeEncodeError`` (all 52 tracebacks of a 3,000-call fuzz run), a 10,000-character unknown
word was echoed back whole, and ``/as`` took a 10,000-character name. Now the console, the service
and Discord (tests/bot/test_discord_edges.py) refuse such text in one sentence and change nothing.
"""

from __future__ import annotations

import io
import logging
import random
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

import tests.toy.spec  # noqa: F401  (registers the toy game)
from bot.clock import FakeClock
from bot.console import Console, user_id_for
from bot.service import GameService, ServiceError
from bot.store import Store
from engine.registry import game_ids

pytestmark = pytest.mark.asyncio
TOY = "toy-goofspiel"  # the test-only game (tests/toy)
ALICE, BOB = 1, 2

# what a careless paste, a broken client or a hostile user sends
NASTY = ["\ud800", "a\udfffb", "\x00", "bob\x07", "\x1b[31mred", "two\u2028lines", "n" * 10_000, "é" * 70,
         "🎲" * 40, "'", '"', "\\", "%s", "{0}", "=", ",", "--", "\u202eevil", "\ufeff", "0" * 33]
PLAIN = ["alice", "bob", "g1", "2", "yes", "Levant", "seats=3", "move=1h", "AI 1", "random"]
PYTHON_ERRORS = re.compile(r"Traceback|Error\b|Exception\b|\bline \d+|object has no|codec can't")


def service(store: Store) -> GameService:
    counter = iter(range(1, 10_000))
    return GameService(store, FakeClock(1_800_000_000), seed_factory=lambda: 42,
                       id_factory=lambda: f"g{next(counter)}")


def readable(text: str) -> None:
    """A sentence a person can be shown: encodable, one line, no Python in it."""
    text.encode("utf-8")  # a lone surrogate cannot be written anywhere
    assert "\n" not in text.strip() and text.strip(), repr(text[:200])
    assert not PYTHON_ERRORS.search(text), text[:200]
    assert len(text) <= 300, text[:200]


async def test_the_console_refuses_broken_or_overlong_text_in_one_line(store: Store, tmp_path: Path) -> None:
    svc = service(store)
    out = io.StringIO()
    console = Console(svc, out, out_dir=tmp_path)
    assert await console.execute(f"/as alice create {TOY}")
    gid = (await svc.store.game_ids(statuses=("lobby",)))[0]
    for line in ["/as \ud800", "/as " + "n" * 10_000, "/as " + "n" * 65, "x" * 10_000, f"status {gid}\ud800",
                 "join \ud800", "use " + "g" * 33, "kick bob\x00", "\x07", f"status {gid}\x1b[2J"]:
        start = len(out.getvalue())
        assert await console.execute(line)
        said = out.getvalue()[start:]
        readable(said)
        assert "\ud800" not in said and "nnnnnnnnnn" not in said and "xxxxxxxxxx" not in said, said
        assert console.user == "alice"  # nobody new: the name was refused
    assert [s.name for s in (await svc.status(gid)).seats] == ["alice"]  # and nothing else changed


async def test_the_service_refuses_broken_or_overlong_ids_and_names(store: Store) -> None:
    svc = service(store)
    gid = (await svc.create_lobby(ALICE, "alice", TOY)).game_id
    calls: dict[str, Callable[[], Awaitable[Any]]] = {
        "join a broken id": lambda: svc.join("\ud800", BOB, "bob"),
        "join with a broken name": lambda: svc.join(gid, BOB, "b\udc00b"),
        "join with an overlong name": lambda: svc.join(gid, BOB, "b" * 10_000),
        "join with a control character": lambda: svc.join(gid, BOB, "bob\x00"),
        "join with a name that reads backwards": lambda: svc.join(gid, BOB, "\u202eeulB( ecila"),
        "create with an overlong name": lambda: svc.create_lobby(BOB, "b" * 10_000, TOY),
        "create a broken game": lambda: svc.create_lobby(BOB, "bob", "toy\ud800"),
        "an AI's broken name": lambda: svc.add_ai(gid, ALICE, name="\ud800"),
        "kick from a broken id": lambda: svc.kick("g\ud800", ALICE, BOB),
        "start an overlong id": lambda: svc.start("g" * 10_000, ALICE),
    }
    for what, call in calls.items():
        with pytest.raises(ServiceError) as info:
            await call()
        assert info.value.code == "bad_text", (what, info.value.code, info.value.message)
        readable(info.value.message)
    status = await svc.status(gid)
    assert [s.name for s in status.seats] == ["alice"] and status.seq == 0
    assert await svc.store.game_ids(statuses=("lobby",)) == [gid]


def fuzz_text(rng: random.Random, known: list[str]) -> str:
    """A word a person might type, or one a broken client might send."""
    pick = rng.random()
    if pick < 0.35:
        return rng.choice(NASTY)
    if pick < 0.6 and known:
        return rng.choice(known)
    if pick < 0.8:
        return rng.choice(PLAIN)
    pieces = ["a", "Z", " ", "\ud83c", "\x00", "é", "'", "1"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 12)))


VERBS = ["create", "join", "leave", "add-ai", "kick", "start", "use", "games", "play", "actions", "status",
         "text", "hand", "vacation", "resign", "reclaim", "pause", "resume", "abandon", "reminders", "timers",
         "scores", "log", "rules", "land", "undo", "/as", "/time", "/help", "2", "yes"]


def service_call(svc: GameService, which: int, gid: str, name: str, who: int, other: int) -> Awaitable[Any]:
    """One of the service's entry points that take an id or a name, with the fuzzed ones."""
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: svc.create_lobby(who, name, TOY), lambda: svc.create_lobby(who, "someone", name),
        lambda: svc.join(gid, who, name), lambda: svc.leave(gid, who),
        lambda: svc.add_ai(gid, who, name=name), lambda: svc.remove_ai(gid, who, name),
        lambda: svc.kick(gid, who, other), lambda: svc.start(gid, who),
        lambda: svc.resign(gid, who), lambda: svc.reclaim(gid, who), lambda: svc.pause(gid, who),
        lambda: svc.abandon(gid, who),
        lambda: svc.replace_seat(gid, who, 0, new_user_id=other, new_name=name),
        lambda: svc.submit(gid, who, {"kind": name}, 0),
    ]
    return calls[which]()


async def test_a_seeded_fuzz_of_the_console_and_the_service_shows_no_python(
        store: Store, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """400 console lines and 400 service calls, half of them carrying broken text: every answer is a
    sentence (no traceback, no Python error text, nothing unprintable), and nothing is logged as an error."""
    rng = random.Random(24)
    svc = service(store)
    out = io.StringIO()
    console = Console(svc, out, out_dir=tmp_path)
    known: list[str] = [TOY, *game_ids(offered=True)]
    for _ in range(400):
        words = [rng.choice(VERBS)] + [fuzz_text(rng, known) for _ in range(rng.randint(0, 3))]
        start = len(out.getvalue())
        assert await console.execute(" ".join(words))
        for line in out.getvalue()[start:].splitlines():
            line.encode("utf-8")
            assert not PYTHON_ERRORS.search(line), (words, line[:200])
            assert "Something went wrong" not in line, (words, line[:200])
            assert len(line) <= 1_200, (words, line[:200])
        known += [g for g in await svc.store.game_ids(statuses=("lobby", "active")) if g not in known]

    people = [ALICE, BOB, user_id_for("alice")]
    for _ in range(400):
        gid, name, who = fuzz_text(rng, known), fuzz_text(rng, known), rng.choice(people)
        try:
            await service_call(svc, rng.randrange(14), gid, name, who, rng.choice(people))
        except ServiceError as exc:
            readable(exc.message)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "errors were logged"
