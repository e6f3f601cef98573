"""7 Ages on Discord (issue 29, "What it must show"): a whole turn between two people and an AI seat with a
trade and a conflict of several rounds between the two people, where what is secret reaches its holder by
DM alone; and a whole short game, opened from the lobby with the "Ages 1-3" preset, with AI seats and one
scripted person, to the final glory.

Uses the harness of :mod:`tests.bot.test_discord_bot` (the real command tree, panels and outbox delivery over
patched HTTP). In the turn, the secret moves (each trade card, each round's commitment) and the choice to
fight on are clicked in the panel of ``/annals play``; the others are sent through the service. The
pictures are drawn by a stand-in that names the view it was given (whose seat) in its file name, so a test
can tell which view each public or private picture came from; what a picture draws of a view is the
renderer's own test (tests/render/test_seven_ages_pictures.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import pytest

import bot.discord.pictures as discord_pictures
from engine.contract.basics import PUBLIC
from engine.contract.values import Event
from engine.seven_ages.ai import make_policy
from engine.seven_ages.cards import load_deck
from engine.seven_ages.game import GAME
from engine.seven_ages.state import SevenState
from engine.seven_ages.view import SevenView
from tests.bot.test_discord_bot import (
    ALICE,
    BOB,
    EPHEMERAL,
    Call,
    Rig,
    entries,
    fake,
    followup,
    no_errors_logged,
    press,
    rig,
)
from tests.support.seven_ages_builder import Scenario, card

__all__ = ["fake", "no_errors_logged", "rig"]  # the harness's fixtures, used here by name
pytestmark = pytest.mark.asyncio

SEATS = {ALICE: 2, BOB: 1}
"""The seat each person draws: the service draws the order from the game's seed (the rig's 42), the same
every run (the AI seat is the third lobby slot)."""
AI_SEAT = 0


def picture_stand_in(view: Mapping[str, Any], *, focus: Sequence[str] = (), size: int = 800,
                     people: Sequence[str] = ()) -> list[tuple[str, bytes]]:
    """Notice pictures named for the view they are drawn from: ``spectator`` or ``seatN``."""
    viewer = view.get("viewer")
    return [(f"of-{'spectator' if viewer is None else f'seat{viewer}'}", b"\x89PNG")]


@pytest.fixture(autouse=True)
def tagged_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord_pictures, "pictures_of", lambda ruleset: picture_stand_in)


def two_peoples_turn() -> SevenState:
    """alice's Romans (Latium, their capital, and Campania) beside bob's Parthians (Tuscany, 5 spears); the
    AI's Egyptians far off in Egypt. Each holds four cards. The turn's markers are still to be placed."""
    alice, bob = SEATS[ALICE], SEATS[BOB]
    s = Scenario(players=3)
    s.empire("Romans", owner=alice, progress=10, money=6, capital="Latium",
             units={"Latium": {"Spear": 3}, "Campania": {"Spear": 2}})
    s.empire("Parthians", owner=bob, progress=10, money=6, units={"Tuscany": {"Spear": 5}})
    s.empire("Egyptians", owner=AI_SEAT, progress=10, money=6, capital="Egypt", units={"Egypt": {"Spear": 2}})
    deck = list(s.state.deck)
    s.hand(alice, *deck[:4]).hand(bob, *deck[4:8]).hand(AI_SEAT, *deck[8:12])
    return s.at("draft").state


def person_choice(seat: int, legal: list[dict[str, Any]]) -> dict[str, Any]:
    """How alice and bob play the turn: alice puts Trade and progress on the Romans (the Parthians are
    the one partner in Range), bob Manoeuvre on the Parthians; bob marches four spears into Latium and
    fights there; each side commits one unit a round and stands fast; no event is played; everything else
    is the first choice offered."""
    mine = {SEATS[ALICE]: ("trade", card("Romans")), SEATS[BOB]: ("manoeuvre", card("Parthians"))}[seat]
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_kind.setdefault(a["kind"], []).append(a)
    if "place_marker" in by_kind:
        wanted = [a for a in by_kind["place_marker"] if (a["marker"], a["empire"]) == mine]
        return wanted[0] if wanted else by_kind.get("done", by_kind["place_marker"])[0]
    for kind, fits in (("commit_done", None), ("turn_marker", None), ("move_from", ("area", "Tuscany")),
                       ("move_units", None), ("move_to", ("area", "Latium")), ("stop_here", None),
                       ("end_movement", None), ("fight_in", None), ("commit", None), ("stand_fast", None),
                       ("trade_card", None), ("window_pass", None), ("pass", None)):
        found = [a for a in by_kind.get(kind, []) if fits is None or a.get(fits[0]) == fits[1]]
        if found:
            return found[0]
    return legal[0]


CLICKED = ("trade_card", "commit", "stand_fast")
"""The moves alice and bob make by clicking their panel (``/annals play``): the secret ones of the trade
and the conflict, and the choice to fight on; the rest go through the service."""


async def click(rig: Rig, gid: str, user: int, action: dict[str, Any]) -> None:
    """``user`` plays ``action`` from the panel of ``/annals play``: the entry labelled as the game's
    decision labels that move (after its group's, in a two-step pick)."""
    status = await rig.service.status(gid)
    _, state = await rig.service.engine_state(gid)
    seat = SEATS[user]
    view = cast(SevenView, await rig.service.view(gid, user))
    decision = GAME.decision(view, seat, GAME.legal_actions(state, seat), status.seat_names)
    choice = next(c for c in decision.choices if c.action.to_json() == action)
    label = choice.label
    reply = followup(await rig.command(user, "play", game=gid))
    assert reply.flags == EPHEMERAL, reply.content
    if choice.group:  # a two-step pick: the group first, then its choices
        group = next(e for e in entries(reply) if e[0] == choice.group)
        reply = followup(await press(rig, user, reply, group))
    entry = next((e for e in entries(reply) if e[0] == label), None)
    assert entry is not None, (label, entries(reply))
    answer = followup(await press(rig, user, reply, entry))
    assert answer.content.startswith(f"You chose: {label}"), answer.content


async def play_the_turn(rig: Rig, gid: str) -> int:
    """alice and bob answer every decision by :func:`person_choice` until the next turn begins; the
    number of moves made by clicking."""
    clicked = 0
    for _ in range(300):
        status = await rig.service.status(gid)
        seq, state = await rig.service.engine_state(gid)
        if state.turn > 1:
            await rig.settle()
            return clicked
        user = next(u for u in status.waiting_for if u in SEATS)
        _, legal = await rig.service.legal_actions(gid, user)
        action = person_choice(SEATS[user], legal)
        if action["kind"] in CLICKED:
            await click(rig, gid, user, action)
            clicked += 1
        else:
            await rig.service.submit(gid, user, action, seq)
        await rig.settle()
    raise AssertionError("the turn did not end")


def texts(calls: list[Call]) -> str:
    return "\n".join(c.content for c in calls)


def pictures(calls: list[Call]) -> list[str]:
    return [f for c in calls for f in c.files]


async def test_a_whole_turn_with_a_trade_and_a_conflict_between_two_people_keeps_every_secret(
        rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    table = two_peoples_turn()  # built before the patch: the builder starts from the real setup
    monkeypatch.setattr(GAME, "setup", lambda players, options, seed: table)
    reply = followup(await rig.command(ALICE, "create", ruleset="seven-ages", seats=3, move_time="2d"))
    gid = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
    assert gid, reply.content
    game = gid.group(1)
    assert "You joined" in followup(await rig.command(BOB, "join", game=game)).content
    assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=game)).content
    status = await rig.service.status(game)
    assert {s.user_id: s.seat for s in status.seats if s.user_id in SEATS} == SEATS, "the seat draw changed"
    names = status.seat_names
    assert await play_the_turn(rig, game) >= 2 + 2 * 2  # two trade cards, two rounds' commitments

    records = [r for r in await rig.service.store.records(game) if r.events]
    events = [Event(e["type"], e["data"], e["audience"] if e["audience"] == PUBLIC else tuple(e["audience"]))
              for r in records for e in r.events or ()]
    kinds = [e.type for e in events]
    trades = [(e.data["empire"], e.data["partner"]) for e in events if e.type == "trade_revealed"]
    assert trades == [(card("Romans"), card("Parthians"))], trades  # the trade between the two people
    assert kinds.count("conflict_tallied") >= 2, kinds  # a conflict of two rounds or more between them
    fights = {tuple(sorted(side["empire"] for side in e.data["sides"]))
              for e in events if e.type == "conflict_tallied"}
    assert fights == {tuple(sorted((card("Romans"), card("Parthians"))))}, fights

    public = rig.fake.public_posts()
    dms = {user: rig.fake.dm_posts(user) for user in SEATS}
    # each private event is told to its audience alone: never in the thread, never in another's DMs
    private = [(e.audience, GAME.describe_event(e, names)) for e in events if e.audience != PUBLIC]
    assert private, "nothing was secret this turn"
    for audience, sentence in private:
        if not sentence:
            continue
        assert sentence not in texts(public), f"a secret in the thread: {sentence}"
        for user, seat in SEATS.items():
            told_them_too = any(s == sentence and seat in a for a, s in private)  # both committed a spear
            if seat not in audience and not told_them_too:
                assert sentence not in texts(dms[user]), f"{names[seat]} was told {sentence!r}"
    # what was secret reached each person by DM: their markers, each round's conflict card, their commitments
    for user, seat in SEATS.items():
        theirs = [s for audience, s in private if s and audience == (seat,)]
        assert sum("Your conflict card" in s for s in theirs) == kinds.count("conflict_tallied"), theirs
        missing = [s for s in theirs if s not in texts(dms[user])]
        assert not missing, f"{names[seat]} was not told by DM: {missing}"
    # the pictures: the thread's (/annals board) drawn from the spectator's view, each DM's from its
    # reader's own
    board = followup(await rig.command(BOB, "board", game=game))
    assert not board.flags & EPHEMERAL
    assert board.files and all("of-spectator" in f for f in board.files + pictures(public)), board.files
    for user, seat in SEATS.items():
        drawn = pictures(dms[user])
        assert drawn and all(f"of-seat{seat}" in f or "of-spectator" in f for f in drawn), drawn
    # no hand in the thread: the cards each person holds now are named in no public line, save those
    # the table saw played (the trade's reveal names both cards)
    shown = " ".join(GAME.describe_event(e, names) or "" for e in events if e.audience == PUBLIC)
    _, state = await rig.service.engine_state(game)
    checked = 0
    for seat in SEATS.values():
        for c in state.people[seat].hand:
            title = load_deck().cards[c].empire.name
            if title not in shown:
                checked += 1
                assert title not in texts(public), f"{names[seat]}'s card {title!r} is in the thread"
    assert checked, "no card held was left unshown"
    # /annals hand answers each person alone
    hand = followup(await rig.command(ALICE, "hand", game=game))
    assert hand.flags == EPHEMERAL


READS_BADLY = ("Traceback", "None", "{", "}", "Something went wrong", str(ALICE))
"""What no line a person reads may hold: Python's text, a missing value, raw data, a raw user id."""


async def test_a_whole_short_game_from_the_lobby_preset_with_ai_seats_to_the_final_glory(rig: Rig) -> None:
    reply = followup(await rig.command(ALICE, "create", ruleset="seven-ages", seats=3, move_time="2d",
                                       options="preset=ages-1-3, turn_limit=4"))
    found = re.search(r"Game `([a-z0-9]+)` is open", reply.content)
    assert found, reply.content
    game = found.group(1)
    for _ in range(2):
        assert "AI seat was added" in followup(await rig.command(ALICE, "add-ai", game=game)).content
    assert "has started" in followup(await rig.command(ALICE, "start", game=game)).content
    row = await rig.service.store.get_game(game)
    assert row is not None
    assert {k: row.options[k] for k in ("total_history", "start_age", "end_age", "turn_limit")} == {
        "total_history": True, "start_age": 1, "end_age": 3, "turn_limit": 4}, row.options  # the preset's,
    # and the turn limit set beside it
    status = await rig.service.status(game)
    seat = next(s.seat for s in status.seats if s.user_id == ALICE)
    assert seat is not None
    me = make_policy("greedy", 7)  # alice's choices: the greedy player's, made on her behalf
    moves = 0
    while (status := await rig.service.status(game)).status == "active":
        assert status.waiting_for == (ALICE,), "the AI seats did not answer alice's move"
        seq, state = await rig.service.engine_state(game)
        await rig.service.submit(game, ALICE, me.choose(state, seat).to_json(), seq)
        moves += 1
        if moves % 25 == 0:
            await rig.settle()
    await rig.settle()
    thread = texts([c for c in rig.fake.public_posts() if c.method == "POST"])  # not the pin's edits
    mine = texts(rig.fake.dm_posts(ALICE))
    ends = "The game ends: the turn limit of 4 was reached."
    assert thread.count(ends) == 1, thread[-2000:]
    final = await rig.service.status(game)
    assert final.ranking is not None
    end = thread[thread.index(ends):]
    assert "Final scores" in end and final.seat_names[final.ranking[0]] in end, end
    assert "Turn 4 begins" in thread and "Turn 5 begins" not in thread  # the turn limit ended it
    assert "Your move" in mine and re.search(r"Alice \((Red|Blue|Green)\)", thread), mine[:500]
    for where, said in (("the thread", thread), ("alice's DMs", mine)):
        text = re.sub(r"<@!?\d+>", "@someone", said)  # a mention is how Discord names a person, not a raw id
        for bad in READS_BADLY:
            assert bad not in text, f"{where} reads {bad!r}:\n{text[max(0, text.find(bad) - 300):][:600]}"
